package ode

import (
	"fmt"
	"math"
	"math/rand"
	"testing"
)

// TestSgemm checks C += A·B against a float64 sum for row-major and
// transposed A, at shapes with every kind of edge (m mod 6, n mod 16) and the
// fused kernel's own, on the AVX2 kernel and the Go one. Each element must
// be within k·2⁻²³·Σ|a·b| + 2⁻²³·|c| of the exact value (the float32
// summation bound).
func TestSgemm(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	kernels := []struct {
		name string
		fma  bool
	}{{"go", false}}
	if haveFMA {
		kernels = append(kernels, struct {
			name string
			fma  bool
		}{"avx2", true})
	}
	shapes := [][3]int{{1, 1, 1}, {6, 16, 3}, {7, 17, 5}, {13, 40, 0}, {5, 3, 9}, {450, 100, 100}, {100, 100, 450}, {8, 100, 450}, {450, 8, 100}, {450, 100, 8}, {12, 33, 2}, {450, 8, 8}, {8, 8, 450}, {6, 8, 4}, {7, 24, 3}, {11, 12, 7}}
	for _, kern := range kernels {
		saved := haveFMA
		haveFMA = kern.fma
		for _, sh := range shapes {
			m, n, k := sh[0], sh[1], sh[2]
			for _, trans := range []bool{false, true} {
				name := fmt.Sprintf("%s/%dx%dx%d/transA=%v", kern.name, m, n, k, trans)
				ldc, ldb := n+3, n+1
				a := make([]float32, m*k+1)
				ars, acs := k, 1
				if trans {
					ars, acs = 1, m
				}
				for i := range a {
					a[i] = float32(rng.NormFloat64())
				}
				b := make([]float32, k*ldb+1)
				for i := range b {
					b[i] = float32(rng.NormFloat64())
				}
				c := make([]float32, m*ldc)
				for i := range c {
					c[i] = float32(rng.NormFloat64())
				}
				c0 := append([]float32(nil), c...)
				var s sgemm
				s.mul(m, n, k, a, ars, acs, b, ldb, c, ldc)
				for i := 0; i < m; i++ {
					for j := 0; j < ldc; j++ {
						if j >= n {
							if c[i*ldc+j] != c0[i*ldc+j] {
								t.Fatalf("%s: C[%d,%d] outside the product changed", name, i, j)
							}
							continue
						}
						want, mag := float64(c0[i*ldc+j]), 0.0
						for p := 0; p < k; p++ {
							v := float64(a[i*ars+p*acs]) * float64(b[p*ldb+j])
							want += v
							mag += math.Abs(v)
						}
						tol := float64(k+1)*0x1p-23*mag + 0x1p-23*math.Abs(want)
						if d := math.Abs(float64(c[i*ldc+j]) - want); d > tol {
							t.Fatalf("%s: C[%d,%d] = %v, want %v (error %g > %g)", name, i, j, c[i*ldc+j], want, d, tol)
						}
					}
				}
			}
		}
		haveFMA = saved
	}
}

// BenchmarkSgemm times the fused float32 kernel's products on one core.
func BenchmarkSgemm(b *testing.B) {
	for _, sh := range []struct {
		m, n, k int
		trans   bool
	}{{450, 100, 100, false}, {100, 100, 450, true}, {450, 100, 8, false}, {450, 8, 100, false}, {8, 100, 450, true}} {
		ars, acs := sh.k, 1
		if sh.trans {
			ars, acs = 1, sh.m
		}
		a := make([]float32, sh.m*sh.k)
		bm := make([]float32, sh.k*sh.n)
		c := make([]float32, sh.m*sh.n)
		var s sgemm
		b.Run(fmt.Sprintf("%dx%dx%d/transA=%v", sh.m, sh.n, sh.k, sh.trans), func(b *testing.B) {
			for b.Loop() {
				s.mul(sh.m, sh.n, sh.k, a, ars, acs, bm, sh.n, c, sh.n)
			}
			b.ReportMetric(2*float64(sh.m*sh.n*sh.k)*float64(b.N)/b.Elapsed().Seconds()/1e9, "gflops")
		})
	}
}

// TestSgemmSumRows checks c += 1ᵀ·B against float64 column sums, for widths
// with every kind of column edge, twice on one sgemm (the panel is reused).
func TestSgemmSumRows(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	var s sgemm
	for _, sh := range [][2]int{{8, 450}, {100, 450}, {3, 7}, {24, 130}, {8, 450}} {
		n, k := sh[0], sh[1]
		b := make([]float32, k*n)
		for i := range b {
			b[i] = float32(rng.NormFloat64())
		}
		c := make([]float32, n)
		c[0] = 1
		s.sumRows(n, k, b, n, c)
		for j := 0; j < n; j++ {
			want, mag := 0.0, 0.0
			if j == 0 {
				want = 1
			}
			for p := 0; p < k; p++ {
				want += float64(b[p*n+j])
				mag += math.Abs(float64(b[p*n+j]))
			}
			if d := math.Abs(float64(c[j]) - want); d > float64(k+1)*0x1p-23*mag {
				t.Fatalf("%d×%d: column %d sums to %v, want %v", k, n, j, c[j], want)
			}
		}
	}
}
