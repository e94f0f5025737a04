package transform

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/gmm"
)

// synthModel is a diagonal GMM of 4 Gaussians in 3 dimensions with unequal
// variances, in the "model" space where the transforms below map the data.
func synthModel(t *testing.T) (means, vars [][]float64) {
	means = [][]float64{{0, 0, 0}, {4, -1, 2}, {-3, 3, 1}, {1, 5, -4}}
	vars = [][]float64{{1, 0.5, 2}, {0.3, 1.5, 0.8}, {2, 0.4, 1}, {0.7, 0.9, 0.25}}
	return means, vars
}

// diagGmm is a DiagGmm with the given means and variances (equal weights).
func diagGmm(t *testing.T, means, vars [][]float64) *gmm.DiagGmm {
	dim := len(means[0])
	g := &gmm.DiagGmm{Dim: dim}
	for m := range means {
		g.Weights = append(g.Weights, float32(1/float64(len(means))))
		for d := 0; d < dim; d++ {
			g.InvVars = append(g.InvVars, float32(1/vars[m][d]))
			g.MeansInvVars = append(g.MeansInvVars, float32(means[m][d]/vars[m][d]))
		}
	}
	if _, err := g.ComputeGconsts(); err != nil {
		t.Fatal(err)
	}
	return g
}

func matVec(a []float64, n int, x []float64) []float64 {
	y := make([]float64, n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			y[i] += a[i*n+j] * x[j]
		}
	}
	return y
}

func nonDecreasing(t *testing.T, what string, objf []float64) {
	t.Helper()
	for i := 1; i < len(objf); i++ {
		// Rounding of the auxiliary function itself (sums over tens of
		// thousands of frames) is ~1e-12 relative.
		if objf[i] < objf[i-1]-1e-10*math.Abs(objf[i-1]) {
			t.Errorf("%s: auxiliary function fell at iteration %d: %.12g → %.12g", what, i, objf[i-1], objf[i])
		}
	}
}

// MLLT on data made by a known square transform R: x = R⁻¹·y with y from
// a diagonal GMM, the model's means R⁻¹·μ and variances σ². The update
// from the identity must never lower the auxiliary function and must find
// R (up to the sign of each row, which the objective cannot see).
func TestMlltAuxfNeverDecreasesAndRecoversTransform(t *testing.T) {
	means, vars := synthModel(t)
	R := []float64{1.2, 0.3, -0.2, 0.1, 0.8, 0.4, -0.3, 0.2, 1.5}
	Rinv, err := invertDense(3, R)
	if err != nil {
		t.Fatal(err)
	}
	xmeans := make([][]float64, len(means))
	for m := range means {
		xmeans[m] = matVec(Rinv, 3, means[m])
	}
	g := diagGmm(t, xmeans, vars)
	accs := NewMlltAccs(3, 0)
	rng := rand.New(rand.NewSource(3))
	post := make([]float32, 4)
	for n := 0; n < 40000; n++ {
		m := n % 4
		y := make([]float64, 3)
		for d := range y {
			y[d] = means[m][d] + math.Sqrt(vars[m][d])*rng.NormFloat64()
		}
		x := matVec(Rinv, 3, y)
		clear(post)
		post[m] = 1
		accs.AccumulateFromPosteriors(g, []float32{float32(x[0]), float32(x[1]), float32(x[2])}, post)
	}
	a := []float64{1, 0, 0, 0, 1, 0, 0, 0, 1}
	var logs []string
	res, err := accs.Update(a, func(f string, v ...any) { logs = append(logs, f) }, func(string, ...any) {})
	if err != nil {
		t.Fatal(err)
	}
	nonDecreasing(t, "MLLT", res.Objf)
	maxErr := 0.0
	for i := 0; i < 3; i++ {
		sign := math.Copysign(1, a[i*3+i]*R[i*3+i])
		for j := 0; j < 3; j++ {
			maxErr = math.Max(maxErr, math.Abs(sign*a[i*3+j]-R[i*3+j]))
		}
	}
	per := func(i int) float64 { return res.Objf[i] / res.Count }
	t.Logf("MLLT auxf per frame: iteration 0 %.6f, 1 %.6f, 2 %.6f, 5 %.6f, 10 %.6f, 200 %.6f; improvement %.6f per frame over %g frames; max |A − R| (row signs fixed) %.4f",
		per(0), per(1), per(2), per(5), per(10), per(200), res.Improvement/res.Count, res.Count, maxErr)
	if maxErr > 0.03 {
		t.Errorf("MLLT transform %v, want %v (max error %g)", a, R, maxErr)
	}
	if len(logs) != 10+19 {
		t.Errorf("%d log lines, want Kaldi's 29 (iterations 0-9 and every tenth)", len(logs))
	}
}

// fMLLR on data made by a known affine transform: y = A·x + b with y drawn
// from the GMM, so x = A⁻¹(y − b). The row-by-row update from [I|0] never
// lowers the auxiliary function and recovers [A|b].
func TestFmllrAuxfNeverDecreasesAndRecoversTransform(t *testing.T) {
	means, vars := synthModel(t)
	g := diagGmm(t, means, vars)
	A := []float64{0.9, 0.2, 0, -0.1, 1.1, 0.3, 0.05, -0.2, 0.8}
	b := []float64{0.5, -1, 2}
	Ainv, err := invertDense(3, A)
	if err != nil {
		t.Fatal(err)
	}
	f := NewFmllrAccs(3)
	rng := rand.New(rand.NewSource(4))
	post := make([]float32, 4)
	for n := 0; n < 20000; n++ {
		m := rng.Intn(4)
		y := make([]float64, 3)
		for d := range y {
			y[d] = means[m][d] + math.Sqrt(vars[m][d])*rng.NormFloat64() - b[d]
		}
		x := matVec(Ainv, 3, y)
		clear(post)
		post[m] = 1
		f.AccumulateFromPosteriors(g, []float32{float32(x[0]), float32(x[1]), float32(x[2])}, post)
	}
	w := Identity(3)
	var logs, warns []string
	res, err := f.Update(DefaultFmllrOptions(), w, func(s string, a ...any) { logs = append(logs, s) }, func(s string, a ...any) { warns = append(warns, s) })
	if err != nil {
		t.Fatal(err)
	}
	if !res.Updated || len(warns) != 0 {
		t.Fatalf("not updated (warnings %q)", warns)
	}
	nonDecreasing(t, "fMLLR", res.Objf)
	maxErr := 0.0
	for i := 0; i < 3; i++ {
		for j := 0; j < 3; j++ {
			maxErr = math.Max(maxErr, math.Abs(w[i*4+j]-A[i*3+j]))
		}
		maxErr = math.Max(maxErr, math.Abs(w[i*4+3]-b[i]))
	}
	per := func(i int) float64 { return res.Objf[i] / res.Count }
	t.Logf("fMLLR auxf per frame: iteration 0 %.6f, 1 %.6f, 2 %.6f, 3 %.6f, 5 %.6f, 40 %.6f; improvement %.6f per frame over %g frames; max |W − [A|b]| %.4f",
		per(0), per(1), per(2), per(3), per(5), per(40), res.Improvement/res.Count, res.Count, maxErr)
	if maxErr > 0.03 {
		t.Errorf("fMLLR transform %v, want A %v b %v (max error %g)", w, A, b, maxErr)
	}
	if len(logs) != 1 || !strings.HasPrefix(logs[0], "fMLLR objf improvement is") {
		t.Errorf("log lines %q", logs)
	}
	// The diagonal and offset updates in closed form do not lower it either.
	for _, typ := range []string{"diag", "offset"} {
		o := DefaultFmllrOptions()
		o.UpdateType = typ
		w := Identity(3)
		before := f.FmllrAuxf(w)
		if _, err := f.Update(o, w, func(string, ...any) {}, func(string, ...any) {}); err != nil {
			t.Fatal(err)
		}
		if after := f.FmllrAuxf(w); after < before {
			t.Errorf("%s update: auxf %g → %g", typ, before, after)
		}
	}
}

// A speaker under --fmllr-min-count frames keeps [I|0], with Kaldi's
// warning.
func TestFmllrTooFewFramesIsIdentity(t *testing.T) {
	means, vars := synthModel(t)
	g := diagGmm(t, means, vars)
	f := NewFmllrAccs(3)
	rng := rand.New(rand.NewSource(5))
	for n := 0; n < 300; n++ {
		x := []float32{float32(rng.NormFloat64()), float32(rng.NormFloat64()), float32(rng.NormFloat64())}
		f.AccumulateForGmm(g, x, 1)
	}
	w := Identity(3)
	var warns []string
	res, err := f.Update(DefaultFmllrOptions(), w, func(string, ...any) {}, func(s string, a ...any) { warns = append(warns, s) })
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range Identity(3) {
		if w[i] != v {
			t.Fatalf("transform %v, want the identity", w)
		}
	}
	if res.Updated || res.Improvement != 0 || math.Abs(res.Count-300) > 1e-3 {
		t.Errorf("result %+v", res)
	}
	if len(warns) != 1 || !strings.Contains(warns[0], "Not updating fMLLR since below min-count") {
		t.Errorf("warnings %q", warns)
	}
	t.Logf("count %g ≤ 500: identity, warning %q", res.Count, warns)
}
