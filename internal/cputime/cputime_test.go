//go:build unix

package cputime

import "testing"

// TestProcessGrows: busy work adds CPU time.
func TestProcessGrows(t *testing.T) {
	start := Process()
	x := 0.0
	for i := 0; i < 50_000_000; i++ {
		x += float64(i&7) * 0.5
	}
	if d := Process() - start; d <= 0 || x == 0 {
		t.Errorf("CPU time grew by %v over busy work", d)
	}
}
