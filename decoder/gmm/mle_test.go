package gmm

import (
	"bytes"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/glibcrand"
	"github.com/strode-asr/strode/kaldiio"
)

// One Gaussian re-estimated from frames drawn from N(μ, σ²) gets their
// sample mean and (biased) sample variance, and the objective rises.
func TestMleUpdateOneGaussianIsSampleMoments(t *testing.T) {
	const dim, n = 3, 500
	rng := rand.New(rand.NewPCG(1, 2))
	mu, sd := []float64{1, -2, 0.5}, []float64{0.5, 2, 1}
	am := InitMono(1, dim, nil, nil)
	acc := NewAccumAmDiagGmm(&am, FlagAll)
	var sum, sum2 [dim]float64
	for range n {
		x := make([]float32, dim)
		for d := range x {
			x[d] = float32(mu[d] + sd[d]*rng.NormFloat64())
			sum[d] += float64(x[d])
			sum2[d] += float64(x[d]) * float64(x[d])
		}
		acc.AccumulateForGmm(&am, x, 0, 1)
	}
	res, err := MleAmDiagGmmUpdate(DefaultMleDiagGmmOptions(), acc, FlagAll, &am)
	if err != nil {
		t.Fatal(err)
	}
	if res.Count != n || res.ObjChange <= 0 {
		t.Errorf("count %g, objective change %g; want %d and > 0", res.Count, res.ObjChange, n)
	}
	g := &am.Pdfs[0]
	for d := 0; d < dim; d++ {
		m := sum[d] / n
		v := sum2[d]/n - m*m
		gotV := 1 / float64(g.InvVars[d])
		gotM := float64(g.MeansInvVars[d]) * gotV
		if math.Abs(gotM-m) > 1e-5 || math.Abs(gotV-v)/v > 1e-5 {
			t.Errorf("dim %d: mean %g var %g, want %g %g", d, gotM, gotV, m, v)
		}
	}
	// The log-likelihood of the mean: gconst + μ·μ/σ² − ½ μ²/σ² = gconst + ½ μ²/σ².
	x := make([]float32, dim)
	var want float64 = -0.5 * dim * math.Log(2*math.Pi)
	for d := range x {
		m := float64(g.MeansInvVars[d]) / float64(g.InvVars[d])
		x[d] = float32(m)
		want += 0.5 * math.Log(float64(g.InvVars[d]))
	}
	if got := g.LogLikelihood(x, nil); math.Abs(float64(got)-want) > 1e-3 {
		t.Errorf("log-likelihood at the mean %g, want %g", got, want)
	}
}

// A Gaussian below --min-gaussian-occupancy is removed and the weights
// renormalised; a variance below --min-variance is floored.
func TestMleUpdateRemovesAndFloors(t *testing.T) {
	g := DiagGmm{Dim: 1, Weights: []float32{0.5, 0.5}, MeansInvVars: []float32{0, 1}, InvVars: []float32{1, 1}}
	g.ComputeGconsts()
	a := NewAccumDiagGmm(2, 1, FlagAll)
	// Gaussian 0: 100 frames at x = 3 exactly (zero variance); Gaussian 1: 5 frames.
	a.Occupancy[0], a.MeanAcc[0], a.VarAcc[0] = 100, 300, 900
	a.Occupancy[1], a.MeanAcc[1], a.VarAcc[1] = 5, 5, 10
	res, err := MleDiagGmmUpdate(DefaultMleDiagGmmOptions(), &a, FlagAll, &g)
	if err != nil {
		t.Fatal(err)
	}
	// The weight is renormalised by the float reciprocal of 100/105, as
	// Kaldi's Scale(1.0/sum) does: 1 within a float's rounding.
	if g.NumGauss() != 1 || res.Removed != 1 || math.Abs(float64(g.Weights[0])-1) > 1e-7 {
		t.Fatalf("%d Gaussians (removed %d), weights %v; want 1, 1, [1]", g.NumGauss(), res.Removed, g.Weights)
	}
	if res.Floored != 1 || math.Abs(1/float64(g.InvVars[0])-0.001) > 1e-9 {
		t.Errorf("floored %d, variance %g; want 1 and 0.001", res.Floored, 1/g.InvVars[0])
	}
	if m := g.MeansInvVars[0] / g.InvVars[0]; math.Abs(float64(m)-3) > 1e-5 {
		t.Errorf("mean %g, want 3", m)
	}
	if len(res.Warnings) != 1 || !strings.Contains(res.Warnings[0], "removing Gaussian") {
		t.Errorf("warnings %q", res.Warnings)
	}
}

func TestSplitTargets(t *testing.T) {
	cases := []struct {
		occs            []float64
		target          int
		power, minCount float64
		want            []int
		full            bool
	}{
		// occ/n decides: 400/1, then 400/2 = 200 > 100, then 400/3 = 133 > 100 ...
		{[]float64{100, 400}, 4, 1, 1, []int{1, 3}, true},
		{[]float64{90, 400}, 7, 1, 1, []int{2, 5}, true},
		// power 0 shares evenly.
		{[]float64{100, 400}, 4, 0, 1, []int{2, 2}, true},
		// min-count: pdf 1 may have at most 400/150 → 2 Gaussians (3·150 ≥ 400).
		{[]float64{100, 400}, 10, 1, 150, []int{1, 2}, false},
		// A refusal uses up a round (Kaldi's ComputeTargetNumPdfs): pdf 0
		// is refused in the fifth round (2·160 ≥ 300), so pdf 1 stops at 4.
		{[]float64{300, 1000}, 6, 1, 160, []int{1, 4}, true},
		// Ties on occ/n go as std::priority_queue breaks them.
		{[]float64{16, 16, 16}, 4, 1, 1, []int{2, 1, 1}, true},
	}
	for _, c := range cases {
		got, full := SplitTargets(c.occs, c.target, c.power, c.minCount)
		if !slices.Equal(got, c.want) || full != c.full {
			t.Errorf("SplitTargets(%v, %d, %g, %g) = %v %v, want %v %v", c.occs, c.target, c.power, c.minCount, got, full, c.want, c.full)
		}
	}
}

// Splitting keeps the total weight and places each pair of means
// symmetrically about the mean they came from.
func TestSplitHalvesTheHeaviest(t *testing.T) {
	g := DiagGmm{Dim: 2, Weights: []float32{0.25, 0.75}, MeansInvVars: []float32{0, 0, 4, 8}, InvVars: []float32{1, 1, 4, 4}}
	g.ComputeGconsts()
	g.Split(3, 0.01, glibcrand.New(1))
	if g.NumGauss() != 3 || g.Weights[1] != 0.375 || g.Weights[2] != 0.375 || g.Weights[0] != 0.25 {
		t.Fatalf("weights %v, want [0.25 0.375 0.375]", g.Weights)
	}
	for d := 0; d < 2; d++ {
		a, b := g.MeansInvVars[2+d], g.MeansInvVars[4+d]
		if a == b || math.Abs(float64(a+b)/2-float64([]float32{4, 8}[d])) > 1e-5 {
			t.Errorf("dim %d: means·invvars %g and %g do not straddle %g", d, a, b, []float32{4, 8}[d])
		}
	}
	if len(g.Gconsts) != 3 {
		t.Errorf("%d gconsts", len(g.Gconsts))
	}
}

// The accumulators survive Kaldi's binary and text forms, and summing two
// copies doubles them.
func TestAccsRoundTripAndSum(t *testing.T) {
	am := InitMono(2, 2, []float64{0, 1}, []float64{1, 2})
	a := Accs{Transitions: kaldiio.DoubleVector{0, 3, 4}, GMM: *NewAccumAmDiagGmm(&am, FlagAll)}
	a.GMM.AccumulateForGmm(&am, []float32{1, 2}, 1, 1)
	a.GMM.AccumulateForGmm(&am, []float32{-1, 0.5}, 0, 0.5)
	for _, binary := range []bool{true, false} {
		path := filepath.Join(t.TempDir(), "1.acc")
		if err := kaldiio.WriteObject(path, AccsCodec, binary, &a); err != nil {
			t.Fatal(err)
		}
		var b Accs
		if err := kaldiio.ReadObject(path, AccsCodec, &b); err != nil {
			t.Fatal(err)
		}
		if b.GMM.Accs[1].MeanAcc[1] != 2 || b.GMM.Accs[0].Occupancy[0] != 0.5 || b.GMM.TotFrames != 1.5 || b.Transitions[2] != 4 {
			t.Errorf("binary=%v: read back %+v", binary, b.GMM.Accs)
		}
		var sum Accs
		for range 2 {
			if err := sum.Add(&b); err != nil {
				t.Fatal(err)
			}
		}
		if sum.GMM.Accs[1].VarAcc[1] != 8 || sum.Transitions[1] != 6 || sum.GMM.TotFrames != 3 {
			t.Errorf("binary=%v: sum %+v", binary, sum.GMM.Accs[1])
		}
	}
	var text bytes.Buffer
	w := kaldiio.NewWriter(&text)
	AccumAmDiagGmmCodec.Write(w, false, &a.GMM)
	w.Flush()
	for _, tok := range []string{"<NUMPDFS> 2", "<GMMACCS> <VECSIZE> 2 <NUMCOMPONENTS> 1 <FLAGS> 15", "<OCCUPANCY>", "<MEANACCS>", "<DIAGVARACCS>", "</GMMACCS>", "<total_like>", "<total_frames> 1.5"} {
		if !strings.Contains(text.String(), tok) {
			t.Errorf("text form lacks %q:\n%s", tok, text.String())
		}
	}
}

// Statistics of another model (other pdf count or Gaussians) are refused.
func TestAccsMismatch(t *testing.T) {
	am := InitMono(2, 2, nil, nil)
	a := NewAccumAmDiagGmm(&am, FlagAll)
	other := InitMono(3, 2, nil, nil)
	if _, err := MleAmDiagGmmUpdate(DefaultMleDiagGmmOptions(), a, FlagAll, &other); err == nil {
		t.Error("update of a 3-pdf model from 2-pdf stats: no error")
	}
	b := NewAccumAmDiagGmm(&other, FlagAll)
	if err := a.Add(1, b); err == nil {
		t.Error("adding 3-pdf stats to 2-pdf stats: no error")
	}
}
