package ode

import (
	"math"
	"math/rand"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

func TestGemm(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, sz := range [][3]int{{1, 1, 1}, {4, 8, 3}, {5, 9, 7}, {450, 100, 100}, {13, 8, 450}, {7, 1, 8}, {3, 17, 0}, {6, 8, 5}, {11, 21, 9}, {17, 12, 33}, {10, 100, 8}} {
		m, n, k := sz[0], sz[1], sz[2]
		a := make([]float64, m*k)
		b := make([]float64, k*n)
		c := make([]float64, m*n)
		for i := range a {
			a[i] = rng.NormFloat64()
		}
		for i := range b {
			b[i] = rng.NormFloat64()
		}
		for i := range c {
			c[i] = rng.NormFloat64()
		}
		want := append([]float64(nil), c...)
		gemmGo(0, m, 0, n, k, a, k, b, n, want, n)
		dgemm(m, n, k, a, k, b, n, c, n)
		for i := range c {
			if math.Abs(c[i]-want[i]) > 1e-12*(1+math.Abs(want[i])) {
				t.Fatalf("%v: c[%d] = %v, want %v", sz, i, c[i], want[i])
			}
		}
	}
}

func BenchmarkGemm450x100x100(b *testing.B) {
	m, n, k := 450, 100, 100
	x := make([]float64, m*k)
	y := make([]float64, k*n)
	c := make([]float64, m*n)
	for i := range x {
		x[i] = 1
	}
	for i := range y {
		y[i] = 1
	}
	for i := 0; i < b.N; i++ {
		dgemm(m, n, k, x, k, y, n, c, n)
	}
	b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
}

func BenchmarkGonumDgemm450x100x100(b *testing.B) {
	m, n, k := 450, 100, 100
	x := blas64.General{Rows: m, Cols: k, Stride: k, Data: make([]float64, m*k)}
	y := blas64.General{Rows: k, Cols: n, Stride: n, Data: make([]float64, k*n)}
	c := blas64.General{Rows: m, Cols: n, Stride: n, Data: make([]float64, m*n)}
	for i := 0; i < b.N; i++ {
		blas64.Gemm(blas.NoTrans, blas.NoTrans, 1, x, y, 1, c)
	}
	b.ReportMetric(2*float64(m*n*k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOPS")
}
