package conv

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

func bnInputs(seed int64, n, c, p int) ([][]float64, [][2]int) {
	rng := rand.New(rand.NewSource(seed))
	x := randSlice(rng, n*c*p, 2)
	for i := range x {
		x[i] += 0.5 // a mean away from 0
	}
	gamma := randSlice(rng, c, 1)
	for i := range gamma {
		gamma[i] += 1.5
	}
	return [][]float64{x, gamma, randSlice(rng, c, 1)}, [][2]int{{n, c * p}, {1, c}, {1, c}}
}

func bnBuild(bn *BatchNorm) func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node {
	return func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node {
		return BatchNorm2D(g, in[0], in[1], in[2], bn)
	}
}

func TestBatchNormGradients(t *testing.T) {
	for _, tc := range []struct{ n, c, p int }{{3, 2, 15}, {2, 3, 1}, {4, 1, 4}} {
		for _, training := range []bool{true, false} {
			for _, slope := range []float64{0, 0.2} {
				bn := NewBatchNorm(tc.c)
				bn.Training = training
				vals, shapes := bnInputs(5, tc.n, tc.c, tc.p)
				gradCheck(t, "batchnorm2d-leaky-relu", vals, shapes, gradStep, tolGrad, func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node {
					return BatchNorm2DLeakyReLU(g, in[0], in[1], in[2], bn, slope)
				})
			}
			bn := NewBatchNorm(tc.c)
			bn.Training = training
			// running statistics away from 0 and 1
			for i := range bn.RunningMean {
				bn.RunningMean[i], bn.RunningVar[i] = 0.3*float64(i)-0.2, 0.5+float64(i)
			}
			vals, shapes := bnInputs(5, tc.n, tc.c, tc.p)
			gradCheck(t, "batchnorm2d", vals, shapes, gradStep, tolGrad, bnBuild(bn))
		}
	}
}

func TestBatchNormForward(t *testing.T) {
	const n, c, p = 3, 2, 7
	vals, shapes := bnInputs(6, n, c, p)
	x, gamma, beta := vals[0], vals[1], vals[2]
	bn := NewBatchNorm(c)
	out1 := forward(t, vals, shapes, bnBuild(bn))
	forward(t, vals, shapes, bnBuild(bn)) // a second training step
	m := float64(n * p)
	for ci := 0; ci < c; ci++ {
		var sum, sq float64
		for i := 0; i < n; i++ {
			for _, v := range x[(i*c+ci)*p : (i*c+ci+1)*p] {
				sum += v
				sq += v * v
			}
		}
		mean := sum / m
		biased := sq/m - mean*mean
		unbiased := biased * m / (m - 1)
		for i := 0; i < n; i++ {
			for j := 0; j < p; j++ {
				o := (i*c+ci)*p + j
				want := gamma[ci]*(x[o]-mean)/math.Sqrt(biased+1e-5) + beta[ci]
				if math.Abs(out1[o]-want) > 1e-12 {
					t.Fatalf("training output %d: %g, want %g", o, out1[o], want)
				}
			}
		}
		// two updates with momentum 0.1 from (0, 1)
		wantMean := 0.9*(0.1*mean) + 0.1*mean
		wantVar := 0.9*(0.9+0.1*unbiased) + 0.1*unbiased
		if math.Abs(bn.RunningMean[ci]-wantMean) > 1e-12 || math.Abs(bn.RunningVar[ci]-wantVar) > 1e-12 {
			t.Errorf("channel %d: running mean, var %g, %g, want %g, %g", ci, bn.RunningMean[ci], bn.RunningVar[ci], wantMean, wantVar)
		}
	}
	if bn.NumBatchesTracked != 2 {
		t.Errorf("%d batches tracked, want 2", bn.NumBatchesTracked)
	}
	// evaluation: the running statistics, unchanged by the run
	bn.Training = false
	mean, variance, batches := bn.Stats()
	out := forward(t, vals, shapes, bnBuild(bn))
	for o, v := range x {
		ci := o / p % c
		want := gamma[ci]*(v-mean[ci])/math.Sqrt(variance[ci]+1e-5) + beta[ci]
		if math.Abs(out[o]-want) > 1e-12 {
			t.Fatalf("evaluation output %d: %g, want %g", o, out[o], want)
		}
	}
	m2, v2, b2 := bn.Stats()
	if maxRelDiff(m2, mean) != 0 || maxRelDiff(v2, variance) != 0 || b2 != batches {
		t.Error("evaluation changed the running statistics")
	}
}

func TestBatchNormSetStats(t *testing.T) {
	bn := NewBatchNorm(2)
	if err := bn.SetStats([]float64{1, 2}, []float64{3, 4}, 7); err != nil {
		t.Fatal(err)
	}
	m, v, b := bn.Stats()
	if m[1] != 2 || v[0] != 3 || b != 7 {
		t.Errorf("Stats after SetStats: %v %v %d", m, v, b)
	}
	m[0] = 99 // a copy
	if bn.RunningMean[0] != 1 {
		t.Error("Stats returned the state itself, not a copy")
	}
	for _, bad := range [][2][]float64{
		{{1}, {1, 1}},
		{{1, 1}, {1, -1}},
		{{math.NaN(), 1}, {1, 1}},
		{{1, 1}, {math.Inf(1), 1}},
	} {
		if err := bn.SetStats(bad[0], bad[1], 0); err == nil {
			t.Errorf("SetStats(%v, %v) accepted", bad[0], bad[1])
		}
	}
	g := autodiff.New()
	x, _ := g.Input("x", 2, 6)
	gb := g.Param("g", make([]float64, 3), 1, 3)
	BatchNorm2D(g, x, gb, gb, NewBatchNorm(2))
	if g.Err() == nil {
		t.Error("1×3 gamma for 2 channels accepted")
	}
}

func TestActivations(t *testing.T) {
	x := []float64{-2, -0.5, 0.25, 3, -1e-3, 0.7, 0, math.Copysign(0, -1)}
	shapes := [][2]int{{2, 4}}
	for _, tc := range []struct {
		name  string
		build func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node
		f     func(float64) float64
	}{
		{"leaky-relu", func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node { return LeakyReLU(g, in[0], 0.2) },
			func(v float64) float64 { return math.Max(v, 0) + 0.2*math.Min(v, 0) }},
		{"relu", func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node { return ReLU(g, in[0]) },
			func(v float64) float64 { return math.Max(v, 0) }},
		{"tanh", func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node { return Tanh(g, in[0]) }, math.Tanh},
	} {
		got := forward(t, [][]float64{x}, shapes, tc.build)
		for i, v := range x {
			if got[i] != tc.f(v) {
				t.Errorf("%s(%g) = %g, want %g", tc.name, v, got[i], tc.f(v))
			}
		}
		rng := rand.New(rand.NewSource(8))
		gradCheck(t, tc.name, [][]float64{randSlice(rng, 40, 1)}, [][2]int{{4, 10}}, gradStep, tolGrad, tc.build)
	}
	if negScale(0, 0.2) != 0.2 || negScale(math.Copysign(0, -1), 0.2) != 0.2 || negScale(1e-300, 0.2) != 1 {
		t.Error("negScale: the slope at ±0 or 1 just above 0 is wrong")
	}
}

// TestBatchNormLeakyReLU: the fused node is the two ops in a row, forward and
// backward.
func TestBatchNormLeakyReLU(t *testing.T) {
	vals, shapes := bnInputs(10, 3, 2, 5)
	for _, training := range []bool{true, false} {
		for _, slope := range []float64{0, 0.2} {
			bn1, bn2 := NewBatchNorm(2), NewBatchNorm(2)
			bn1.Training, bn2.Training = training, training
			out1, g1 := runCost(t, vals, shapes, randSlice(rand.New(rand.NewSource(3)), 30, 1), func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node {
				return BatchNorm2DLeakyReLU(g, in[0], in[1], in[2], bn1, slope)
			})
			out2, g2 := runCost(t, vals, shapes, randSlice(rand.New(rand.NewSource(3)), 30, 1), func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node {
				return LeakyReLU(g, BatchNorm2D(g, in[0], in[1], in[2], bn2), slope)
			})
			if d := maxRelDiff(out1, out2); d > 1e-14 {
				t.Errorf("training=%v slope %g: outputs differ by %g", training, slope, d)
			}
			for i := range g1 {
				if d := maxRelDiff(g1[i], g2[i]); d > 1e-13 {
					t.Errorf("training=%v slope %g: gradient %d differs by %g", training, slope, i, d)
				}
			}
		}
	}
}
