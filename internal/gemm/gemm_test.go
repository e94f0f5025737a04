package gemm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// operands holds one random Sgemm problem with padded leading dimensions.
// The padding is filled with NaN so that reading it shows up in C.
type operands struct {
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	a, b, c        []float32
	lda, ldb, ldc  int
}

func newOperands(rng *rand.Rand, transA, transB bool, m, n, k, pad int, alpha, beta float32) *operands {
	o := &operands{transA: transA, transB: transB, m: m, n: n, k: k, alpha: alpha, beta: beta}
	rowsA, colsA := m, k
	if transA {
		rowsA, colsA = k, m
	}
	rowsB, colsB := k, n
	if transB {
		rowsB, colsB = n, k
	}
	o.lda, o.ldb, o.ldc = max(1, colsA)+pad, max(1, colsB)+2*pad, max(1, n)+3*pad
	o.a = randMatrix(rng, rowsA, colsA, o.lda)
	o.b = randMatrix(rng, rowsB, colsB, o.ldb)
	o.c = randMatrix(rng, m, n, o.ldc)
	if beta == 0 {
		// BLAS: C is not read when beta is 0.
		for i := range o.c {
			o.c[i] = float32(math.NaN())
		}
	}
	return o
}

func randMatrix(rng *rand.Rand, rows, cols, ld int) []float32 {
	if rows == 0 {
		return nil
	}
	s := make([]float32, (rows-1)*ld+cols)
	for i := range s {
		if i%ld < cols {
			s[i] = float32(rng.NormFloat64())
		} else {
			s[i] = float32(math.NaN())
		}
	}
	return s
}

func (o *operands) at(trans bool, x []float32, ld, i, j int) float64 {
	if trans {
		return float64(x[j*ld+i])
	}
	return float64(x[i*ld+j])
}

// reference returns C in float64 and, per element, Σ|alpha·a·b| + |beta·c|,
// the scale that float32 rounding errors are proportional to.
func (o *operands) reference() (want, mag []float64) {
	want = make([]float64, o.m*o.n)
	mag = make([]float64, o.m*o.n)
	for i := 0; i < o.m; i++ {
		for j := 0; j < o.n; j++ {
			var s, sa float64
			for p := 0; p < o.k; p++ {
				t := o.at(o.transA, o.a, o.lda, i, p) * o.at(o.transB, o.b, o.ldb, p, j)
				s += t
				sa += math.Abs(t)
			}
			s *= float64(o.alpha)
			sa *= math.Abs(float64(o.alpha))
			if o.beta != 0 {
				cij := float64(o.c[i*o.ldc+j])
				s += float64(o.beta) * cij
				sa += math.Abs(float64(o.beta) * cij)
			}
			want[i*o.n+j], mag[i*o.n+j] = s, sa
		}
	}
	return want, mag
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

func (o *operands) run(sgemm func(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int)) []float32 {
	c := append([]float32(nil), o.c...)
	sgemm(trans(o.transA), trans(o.transB), o.m, o.n, o.k, o.alpha, o.a, o.lda, o.b, o.ldb, o.beta, c, o.ldc)
	return c
}

// check compares got with the float64 reference and with gonum's result, and
// checks that the padding of C is untouched.
//
// Tolerances: against the exact product, float32 summation of k terms errs by
// at most about (k+2)·ε·Σ|terms| (ε = 2⁻²⁴; Higham, Accuracy and Stability,
// §3.1); against gonum, the relative 1e-5 scaled by k.
func (o *operands) check(t *testing.T, got []float32) {
	t.Helper()
	want, mag := o.reference()
	ref := o.run(gonum.Implementation{}.Sgemm)
	const eps = 1.0 / (1 << 24)
	bad := 0
	for i := 0; i < o.m; i++ {
		for j := 0; j < o.n; j++ {
			g := float64(got[i*o.ldc+j])
			w, s := want[i*o.n+j], mag[i*o.n+j]
			gn := float64(ref[i*o.ldc+j])
			tolExact := float64(o.k+2)*eps*s + 1e-30
			tolGonum := 1e-5*float64(max(1, o.k))*s + 1e-30
			if !(math.Abs(g-w) <= tolExact) || !(math.Abs(g-gn) <= tolGonum) {
				if bad++; bad <= 5 {
					t.Errorf("C[%d,%d] = %v, want %v (±%.2g), gonum %v (±%.2g)", i, j, g, w, tolExact, gn, tolGonum)
				}
			}
		}
		for p := i*o.ldc + o.n; p < (i+1)*o.ldc && p < len(got); p++ {
			if !(math.IsNaN(float64(got[p])) && math.IsNaN(float64(o.c[p]))) && got[p] != o.c[p] {
				if bad++; bad <= 5 {
					t.Errorf("padding C[%d] changed from %v to %v", p, o.c[p], got[p])
				}
			}
		}
	}
	if bad > 5 {
		t.Errorf("... %d bad elements in all", bad)
	}
}

// withKernel runs f under each kernel this machine has, and says which it
// cannot test.
func withKernel(t *testing.T, f func(t *testing.T)) {
	have := map[string]bool{}
	for _, name := range Kernels() {
		have[name] = true
	}
	for _, name := range []string{"avx512", "avx2", GonumKernel} {
		t.Run(name, func(t *testing.T) {
			if !have[name] {
				t.Skipf("kernel %s not available on this CPU (have %v)", name, Kernels())
			}
			prev, err := SetKernel(name)
			if err != nil {
				t.Fatal(err)
			}
			defer SetKernel(prev)
			f(t)
		})
	}
}

func TestSgemmMatchesReference(t *testing.T) {
	type shape struct{ m, n, k int }
	shapes := []shape{
		{1, 1, 1}, {1, 7, 17}, {7, 1, 17}, {17, 7, 1}, {7, 17, 0},
		{6, 16, 5}, {12, 32, 9}, {13, 33, 7}, {5, 15, 300},
		{513, 17, 7}, {7, 513, 17}, {17, 7, 513},
		{150, 40, 600}, // several kc blocks, an mc edge for both kernels
		{250, 33, 65},  // beyond one mc block
		{3, 4100, 5},   // beyond one nc block
	}
	if !testing.Short() {
		shapes = append(shapes, shape{513, 513, 513}, shape{300, 4097, 70})
	}
	withKernel(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(1, 2))
		for _, s := range shapes {
			for _, tA := range []bool{false, true} {
				for _, tB := range []bool{false, true} {
					for _, ab := range [][2]float32{{1, 0}, {1, 1}, {-0.75, 2.5}, {0, 0.5}, {2, 0}} {
						for _, pad := range []int{0, 3} {
							name := fmt.Sprintf("%dx%dx%d/tA=%v/tB=%v/alpha=%v/beta=%v/pad=%d", s.m, s.n, s.k, tA, tB, ab[0], ab[1], pad)
							o := newOperands(rng, tA, tB, s.m, s.n, s.k, pad, ab[0], ab[1])
							got := o.run(Implementation{}.Sgemm)
							t.Run(name, func(t *testing.T) { o.check(t, got) })
						}
					}
				}
			}
		}
	})
}

// TestSgemmPlain checks the plain-slice entry point against Implementation.
func TestSgemmPlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	o := newOperands(rng, true, false, 37, 29, 41, 2, 1.5, -1)
	got := append([]float32(nil), o.c...)
	Sgemm(o.transA, o.transB, o.m, o.n, o.k, o.alpha, o.a, o.lda, o.b, o.ldb, o.beta, got, o.ldc)
	o.check(t, got)
}

// TestSgemmDeterministic checks that the result is bitwise the same for any
// number of threads, on shapes split over rows and over columns.
func TestSgemmDeterministic(t *testing.T) {
	shapes := [][3]int{{301, 257, 700}, {5, 1001, 300}, {1000, 9, 513}, {1500, 600, 700}, {4200, 3, 4100}, {130, 70, 40}}
	if testing.Short() {
		// 1500×600×700 is most of the test's time; 96 columns keep its
		// cut across rows, its many row blocks and its three k blocks.
		shapes[3] = [3]int{1500, 96, 700}
	}
	withKernel(t, func(t *testing.T) {
		rng := rand.New(rand.NewPCG(5, 6))
		defer SetThreads(SetThreads(1))
		for _, s := range shapes {
			for _, tr := range [][2]bool{{false, false}, {true, true}} {
				o := newOperands(rng, tr[0], tr[1], s[0], s[1], s[2], 1, 0.5, 1)
				SetThreads(1)
				want := o.run(Implementation{}.Sgemm)
				threadCounts := []int{2, 3, 4, 7}
				if testing.Short() && Kernel() == GonumKernel {
					// gonum's Sgemm ignores SetThreads: one repeat shows
					// that its result does not vary from run to run.
					threadCounts = threadCounts[:1]
				}
				for _, threads := range threadCounts {
					SetThreads(threads)
					got := o.run(Implementation{}.Sgemm)
					for i := range got {
						if math.Float32bits(got[i]) != math.Float32bits(want[i]) &&
							!(math.IsNaN(float64(got[i])) && math.IsNaN(float64(want[i]))) {
							t.Errorf("%v tA,tB=%v threads=%d: C[%d] = %v, with 1 thread %v", s, tr, threads, i, got[i], want[i])
							break
						}
					}
				}
			}
		}
	})
}

func TestSgemmPanics(t *testing.T) {
	a := make([]float32, 12)
	for _, tc := range []struct {
		name, want string
		f          func()
	}{
		{"m<0", mLT0, func() { Sgemm(false, false, -1, 2, 2, 1, a, 2, a, 2, 0, a, 2) }},
		{"lda", badLdA, func() { Sgemm(false, false, 2, 2, 3, 1, a, 2, a, 2, 0, a, 2) }},
		{"ldb", badLdB, func() { Sgemm(false, true, 2, 2, 3, 1, a, 3, a, 2, 0, a, 2) }},
		{"ldc", badLdC, func() { Sgemm(false, false, 2, 3, 2, 1, a, 2, a, 3, 0, a, 2) }},
		{"short a", shortA, func() { Sgemm(false, false, 4, 2, 4, 1, a, 4, a, 2, 0, a, 2) }},
		{"short c", shortC, func() { Sgemm(false, false, 2, 2, 2, 1, a, 2, a, 2, 0, a[:3], 2) }},
		{"transpose", badTranspose, func() {
			Implementation{}.Sgemm('x', blas.NoTrans, 1, 1, 1, 1, a, 1, a, 1, 0, a, 1)
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if r := recover(); r != tc.want {
					t.Errorf("panic %v, want %q", r, tc.want)
				}
			}()
			tc.f()
		})
	}
}
