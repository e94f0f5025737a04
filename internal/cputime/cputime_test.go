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

// TestPeakRSSCoversTouchedMemory: 64 MB written raise the peak to at least that.
func TestPeakRSSCoversTouchedMemory(t *testing.T) {
	b := make([]byte, 64<<20)
	for i := range b {
		b[i] = byte(i)
	}
	if p := PeakRSS(); p < int64(len(b)) || b[len(b)-1] != 255 {
		t.Errorf("peak RSS %d bytes after touching %d", p, len(b))
	}
}
