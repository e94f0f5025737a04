package gemm

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// benchShapes are the shapes, written m×k×n: C (m×n) = A (m×k) ·
// B (k×n). The SRU ones are one layer's forward product (frames × in) ·
// (in × 3h).
var benchShapes = []struct {
	name    string
	m, k, n int
}{
	{"1024x1024x1024", 1024, 1024, 1024},
	{"sru-4000x900x2700", 4000, 900, 2700},
	{"sru-4000x256x768", 4000, 256, 768},
}

// BenchmarkSgemm measures C = A·B for this package (default kernel) and
// gonum, on 1 and 2 threads; the gflops metric is 2·m·n·k per second.
// Threads are pinned through GOMAXPROCS, which gonum follows, and SetThreads.
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
		a := randMatrix(rng, s.m, s.k, s.k)
		bm := randMatrix(rng, s.k, s.n, s.n)
		c := make([]float32, s.m*s.n)
		for _, impl := range impls {
			for _, threads := range []int{1, 2} {
				b.Run(fmt.Sprintf("%s/%s/threads=%d", s.name, impl.name, threads), func(b *testing.B) {
					defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(threads))
					defer SetThreads(SetThreads(threads))
					for b.Loop() {
						impl.f(blas.NoTrans, blas.NoTrans, s.m, s.n, s.k, 1, a, s.k, bm, s.n, 0, c, s.n)
					}
					b.ReportMetric(2*float64(s.m)*float64(s.n)*float64(s.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "gflops")
				})
			}
		}
	}
}
