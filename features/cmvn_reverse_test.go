package features

import (
	"math"
	"math/rand/v2"
	"testing"
)

// apply-cmvn --reverse undoes apply-cmvn with the same statistics (up to
// float rounding), with and without variance normalization; bad stats are
// Kaldi's errors.
func TestApplyCmvnReverseUndoesApplyCmvn(t *testing.T) {
	const rows, dim = 300, 13
	rng := rand.New(rand.NewPCG(11, 12))
	orig := make([]float32, rows*dim)
	for i := range orig {
		d := i % dim
		orig[i] = float32(rng.NormFloat64()*float64(d+1) + float64(10*d-40))
	}
	stats := NewCmvnStats(dim)
	if err := AccCmvnStats(stats, orig, rows, dim); err != nil {
		t.Fatal(err)
	}
	for _, normVars := range []bool{false, true} {
		x := append([]float32(nil), orig...)
		if _, err := ApplyCmvn(stats, 2, normVars, x, rows, dim); err != nil {
			t.Fatal(err)
		}
		if _, err := ApplyCmvnReverse(stats, 2, normVars, x, rows, dim); err != nil {
			t.Fatal(err)
		}
		var worst float64
		for i := range x {
			worst = max(worst, math.Abs(float64(x[i]-orig[i]))/max(1, math.Abs(float64(orig[i]))))
		}
		if worst > 2e-6 {
			t.Errorf("norm-vars=%v: reverse(apply(x)) differs from x by %.3g (relative)", normVars, worst)
		}
		t.Logf("norm-vars=%v: largest relative difference %.3g", normVars, worst)
	}
	if _, err := ApplyCmvnReverse(stats[:dim+1], 1, true, orig, rows, dim); err == nil {
		t.Error("variance normalization with one-row stats: no error")
	}
	zero := NewCmvnStats(dim)
	if _, err := ApplyCmvnReverse(zero, 2, false, orig, rows, dim); err == nil {
		t.Error("count 0: no error")
	}
	if _, err := ApplyCmvnReverse(stats, 2, false, orig, rows, dim-1); err == nil {
		t.Error("dim mismatch: no error")
	}
}
