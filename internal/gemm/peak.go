package gemm

import (
	"time"

	"github.com/strode-asr/strode/internal/cputime"
)

// KernelPeak measures the active micro-kernel on the calling goroutine, on
// panels that stay in L1 (k = 256), for about d: the GFLOP/s no product can
// beat on this core, free of packing and memory traffic — what a benchmark
// divides its achieved rate by to say how near the peak a whole computation
// runs. Time is the process's CPU time where the OS reports it (so call it
// while nothing else in the process runs; a loaded machine's waits do not
// count), the wall clock elsewhere. It returns 0 when products go to gonum.
func KernelPeak(d time.Duration) float64 {
	kern := active.Load()
	if kern == nil {
		return 0
	}
	const k, calls = 256, 2000
	a := make([]float32, k*kern.mr)
	b := make([]float32, k*kern.nr)
	c := make([]float32, kern.mr*kern.nr)
	clock := cputime.Process
	if clock() == 0 {
		start := time.Now()
		clock = func() time.Duration { return time.Since(start) }
	}
	n, t0 := 0, clock()
	for clock()-t0 < d {
		for range calls {
			kern.fn(k, &a[0], &b[0], &c[0], kern.nr, 1)
		}
		n += calls
	}
	return 2 * float64(kern.mr*kern.nr*k) * float64(n) / (clock() - t0).Seconds() / 1e9
}
