package gemm

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"

	"github.com/strode-asr/strode/internal/cputime"
)

// benchShapes are the shapes, written m×k×n: C (m×n) = A (m×k) ·
// B (k×n). The SRU ones are one layer's forward product (frames × in) ·
// (in × 3h).
// The -dW and -dX shapes are the two backward products of the last one:
// Xᵀ·dY and dY·Wᵀ.
var benchShapes = []struct {
	name           string
	m, k, n        int
	transA, transB bool
}{
	{name: "1024x1024x1024", m: 1024, k: 1024, n: 1024},
	{name: "sru-4000x900x2700", m: 4000, k: 900, n: 2700},
	{name: "sru-4000x256x768", m: 4000, k: 256, n: 768},
	{name: "sru-dW-256x4000x768", m: 256, k: 4000, n: 768, transA: true},
	{name: "sru-dX-4000x768x256", m: 4000, k: 768, n: 256, transB: true},
}

// BenchmarkSgemm measures C = A·B for this package (default kernel) and
// gonum, on 1 and 2 threads; the gflops metric is 2·m·n·k per second.
// Threads are pinned through GOMAXPROCS, which gonum follows, and SetThreads.
// cpu-gflops divides by the CPU time the process used instead of wall time:
// on a busy machine it still shows whether two threads waste work (it stays
// near the one-thread gflops when they do not), where gflops cannot.
func BenchmarkSgemm(b *testing.B) {
	rng := rand.New(rand.NewPCG(7, 8))
	impls := []struct {
		name string
		f    func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)
	}{
		{"strode-" + Kernel(), Implementation{}.Sgemm},
		{"gonum", gonum.Implementation{}.Sgemm},
	}
	for _, s := range benchShapes {
		lda, ldb := s.k, s.n
		if s.transA {
			lda = s.m
		}
		if s.transB {
			ldb = s.k
		}
		a := randMatrix(rng, s.m, s.k, s.k) // m·k values either way
		bm := randMatrix(rng, s.k, s.n, s.n)
		c := make([]float32, s.m*s.n)
		for _, impl := range impls {
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/threads=%d", s.name, impl.name, threads), func(b *testing.B) {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
					defer SetThreads(SetThreads(threads))
					cpu0 := cputime.Process()
					for b.Loop() {
						impl.f(trans(s.transA), trans(s.transB), s.m, s.n, s.k, 1, a, lda, bm, ldb, 0, c, s.n)
					}
					flops := 2 * float64(s.m) * float64(s.n) * float64(s.k) * float64(b.N)
					b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "gflops")
					if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
						b.ReportMetric(flops/cpu/1e9, "cpu-gflops")
					}
				})
			}
		}
	}
}

// BenchmarkKernelPeak runs the micro-kernel on panels that stay in L1, on 1
// and 2 goroutines at once: the machine's ceiling for this kernel, free of
// packing and memory traffic. Read the two-thread scaling of BenchmarkSgemm
// against this one's: where two busy cores of a (virtual) machine do not give
// twice one core's flops, no product can.
func BenchmarkKernelPeak(b *testing.B) {
	kern := active.Load()
	if kern == nil {
		b.Skip("no SIMD kernel on this CPU")
	}
	const k = 256
	for _, threads := range []int{1, 2} {
		b.Run(fmt.Sprintf("%s/threads=%d", kern.name, threads), func(b *testing.B) {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
			const calls = 20000
			cpu0 := cputime.Process()
			for b.Loop() {
				parallel(threads, threads, func(_, _ int) {
					a := make([]float32, k*kern.mr)
					bp := make([]float32, k*kern.nr)
					c := make([]float32, kern.mr*kern.nr)
					for range calls {
						kern.fn(k, &a[0], &bp[0], &c[0], kern.nr, 1)
					}
				})
			}
			flops := 2 * float64(kern.mr*kern.nr*k) * calls * float64(threads) * float64(b.N)
			b.ReportMetric(flops/b.Elapsed().Seconds()/1e9, "gflops")
			if cpu := (cputime.Process() - cpu0).Seconds(); cpu > 0 {
				b.ReportMetric(flops/cpu/1e9, "cpu-gflops")
			}
		})
	}
}
