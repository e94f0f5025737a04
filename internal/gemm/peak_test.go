package gemm

import (
	"testing"
	"time"
)

func TestKernelPeak(t *testing.T) {
	if active.Load() == nil {
		if p := KernelPeak(time.Millisecond); p != 0 {
			t.Fatalf("no SIMD kernel, but a peak of %g GFLOP/s", p)
		}
		return
	}
	if p := KernelPeak(20 * time.Millisecond); !(p > 0.1) || p > 1e4 {
		t.Fatalf("kernel peak %g GFLOP/s", p)
	}
}
