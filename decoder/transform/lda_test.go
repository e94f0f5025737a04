package transform

import (
	"bytes"
	"math"
	"math/rand"
	"sort"
	"testing"

	"gonum.org/v1/gonum/mat"

	"github.com/strode-asr/strode/kaldiio"
)

// threeClasses draws n frames of each of three Gaussian classes in 4
// dimensions, with correlated, unequal within-class covariance (the same
// for all classes, as LDA assumes).
func threeClasses(n int, seed int64) *LdaAccs {
	rng := rand.New(rand.NewSource(seed))
	means := [][]float64{{0, 0, 0, 0}, {3, 1, 0, -1}, {-1, 4, 2, 0}}
	chol := []float64{ // lower-triangular factor of the within-class covariance
		1, 0, 0, 0,
		0.5, 2, 0, 0,
		0.2, -0.3, 0.7, 0,
		0.1, 0.4, 0.2, 1.5,
	}
	accs := NewLdaAccs(3, 4)
	x := make([]float32, 4)
	for c, mu := range means {
		for range n {
			z := []float64{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
			for i := range x {
				s := mu[i]
				for j := 0; j <= i; j++ {
					s += chol[i*4+j] * z[j]
				}
				x[i] = float32(s)
			}
			accs.Accumulate(x, c, 1)
		}
	}
	return accs
}

// LDA on three Gaussian classes against a direct solution of the
// generalised eigenproblem B·v = λ·W·v: est-lda's rows must be its
// eigenvectors (residual), with the eigenvalues of W⁻¹B, normalised to
// unit within-class variance and W-orthogonal.
func TestLdaMatchesGeneralisedEigenproblem(t *testing.T) {
	accs := threeClasses(2000, 1)
	var logs []string
	res, err := accs.Estimate(LdaOptions{Dim: 2, WithinClassFactor: 1}, func(f string, a ...any) { logs = append(logs, f) })
	if err != nil {
		t.Fatal(err)
	}
	_, total, between, _ := accs.Stats()
	dim := 4
	w := make([]float64, dim*dim)
	tot, bd := total.Dense(), between.Dense()
	for i := range w {
		w[i] = tot[i] - bd[i]
	}
	W, B := mat.NewDense(dim, dim, w), mat.NewDense(dim, dim, bd)

	// The direct solution: eigenvalues of W⁻¹·B (real, as W, B are
	// symmetric and W positive definite).
	var winv, wb mat.Dense
	if err := winv.Inverse(W); err != nil {
		t.Fatal(err)
	}
	wb.Mul(&winv, B)
	var eig mat.Eigen
	if !eig.Factorize(&wb, mat.EigenRight) {
		t.Fatal("eigen failed")
	}
	var direct []float64
	for _, v := range eig.Values(nil) {
		direct = append(direct, real(v))
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(direct)))
	for i := 0; i < dim; i++ {
		if d := math.Abs(direct[i] - res.Eigenvalues[i]); d > 1e-9*math.Max(1, direct[0]) {
			t.Errorf("eigenvalue %d: LDA %g, direct %g", i, res.Eigenvalues[i], direct[i])
		}
	}
	// With 3 classes B has rank 2: the other eigenvalues vanish.
	if math.Abs(res.Eigenvalues[2]) > 1e-9 || res.Eigenvalues[1] < 0.1 {
		t.Errorf("eigenvalues %v: want two positive, then ~0", res.Eigenvalues)
	}
	maxRes, maxNorm := 0.0, 0.0
	for i := 0; i < 2; i++ {
		r := mat.NewVecDense(dim, toDouble(&kaldiio.Matrix{Rows: 1, Cols: dim, Data: res.M.Row(i)}))
		var bv, wv mat.VecDense
		bv.MulVec(B, r)
		wv.MulVec(W, r)
		lam := res.Eigenvalues[i]
		var diff mat.VecDense
		diff.AddScaledVec(&bv, -lam, &wv)
		rel := mat.Norm(&diff, 2) / mat.Norm(&bv, 2)
		maxRes = math.Max(maxRes, rel)
		for j := 0; j < 2; j++ {
			s := mat.NewVecDense(dim, toDouble(&kaldiio.Matrix{Rows: 1, Cols: dim, Data: res.M.Row(j)}))
			want := 0.0
			if i == j {
				want = 1
			}
			maxNorm = math.Max(maxNorm, math.Abs(mat.Inner(r, W, s)-want))
		}
	}
	t.Logf("eigenvalues %.6g (direct %.6g); max relative residual |B·r − λ·W·r|/|B·r| = %.3g; max |r·W·sᵀ − δ| = %.3g", res.Eigenvalues, direct, maxRes, maxNorm)
	// The matrix is stored in float: residuals at float precision.
	if maxRes > 1e-5 || maxNorm > 1e-5 {
		t.Errorf("residual %g, normalisation error %g: want < 1e-5", maxRes, maxNorm)
	}
	if len(logs) != 4 {
		t.Errorf("log lines %q", logs)
	}

	// --remove-offset: the projected mean is zero.
	resOff, err := accs.Estimate(LdaOptions{Dim: 2, WithinClassFactor: 1, RemoveOffset: true}, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	mean, _, _, _ := accs.Stats()
	for i := 0; i < 2; i++ {
		s := float64(resOff.M.At(i, dim))
		for j := 0; j < dim; j++ {
			s += float64(resOff.M.At(i, j)) * mean[j]
		}
		if math.Abs(s) > 1e-5 {
			t.Errorf("row %d: projected mean %g with --remove-offset", i, s)
		}
	}
	if resOff.M.Cols != dim+1 || resOff.Full.Cols != dim+1 {
		t.Errorf("--remove-offset: %dx%d and full %dx%d", resOff.M.Rows, resOff.M.Cols, resOff.Full.Rows, resOff.Full.Cols)
	}

	// A dimension not below the class count needs --allow-large-dim.
	if _, err := accs.Estimate(LdaOptions{Dim: 3, WithinClassFactor: 1}, func(string, ...any) {}); err == nil {
		t.Error("--dim=3 with 3 classes: want an error")
	}
	if _, err := accs.Estimate(LdaOptions{Dim: 3, AllowLargeDim: true, WithinClassFactor: 1}, func(string, ...any) {}); err != nil {
		t.Error(err)
	}
}

// The accumulators survive Kaldi's binary and text forms (the within-class
// scatter is written in float, so to float precision).
func TestLdaAccsRoundTrip(t *testing.T) {
	accs := threeClasses(50, 2)
	for _, binary := range []bool{true, false} {
		var buf bytes.Buffer
		w := kaldiio.NewWriter(&buf)
		if err := LdaAccsCodec.Write(w, binary, accs); err != nil {
			t.Fatal(err)
		}
		w.Flush()
		var back LdaAccs
		if err := LdaAccsCodec.Read(kaldiio.NewReader(&buf, "accs"), binary, &back); err != nil {
			t.Fatalf("binary=%v: %v", binary, err)
		}
		for i, v := range accs.Second.Data {
			if math.Abs(back.Second.Data[i]-v) > 1e-4*math.Abs(v)+1e-3 {
				t.Fatalf("binary=%v: scatter[%d] %g, want %g", binary, i, back.Second.Data[i], v)
			}
		}
		for i, v := range accs.Zero {
			if back.Zero[i] != v {
				t.Fatalf("binary=%v: count %d %g, want %g", binary, i, back.Zero[i], v)
			}
		}
	}
}
