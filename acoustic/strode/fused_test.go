package strode

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/optim"
)

// TestBFused compares Boundary.BFused with Boundary.B (values within
// 1e-12, gradients by parameter within 1e-10 relative) and checks the fused
// gradients against finite differences.
func TestBFused(t *testing.T) {
	var vals [2][]float64
	var grads [2]map[string][]float64
	for k, fused := range []bool{false, true} {
		rng := rand.New(rand.NewSource(17))
		var ps nn.Params
		b := NewBoundary(&ps, "phi", 3, 4, rng)
		xp := ps.New("x", 7, 3, optim.Free, rng)
		n := nn.NewNet()
		var y *autodiff.Node
		if fused {
			y = b.BFused(n, n.P(xp))
		} else {
			y = b.B(n, n.P(xp))
		}
		s := y.Shape()
		cost := n.Sum(n.Mul(n.Square(y), n.Const("w", randomCol(rng, s[0]*s[1], -1, 1), s[0], s[1])))
		m, params := compile(t, n, cost)
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		vals[k] = append([]float64(nil), autodiff.Value(y)...)
		grads[k] = map[string][]float64{}
		for i, q := range params {
			grads[k][q.Name] = append([]float64(nil), m.Grad(i)...)
		}
		if fused {
			checkGrads(t, "boundary-b", m, cost, params, 16)
		}
	}
	for i := range vals[0] {
		if math.Abs(vals[0][i]-vals[1][i]) > 1e-12 {
			t.Fatalf("value %d: graph %v, fused %v", i, vals[0][i], vals[1][i])
		}
	}
	if len(grads[0]) != len(grads[1]) {
		t.Fatalf("gradients for %d and %d parameters", len(grads[0]), len(grads[1]))
	}
	for name, g := range grads[0] {
		for i := range g {
			a, b := g[i], grads[1][name][i]
			if math.Abs(a-b) > 1e-10*(1+math.Abs(a)) {
				t.Fatalf("d/d%s[%d]: graph %v, fused %v", name, i, a, b)
			}
		}
	}
}

// TestGraphFormsMatchFused builds the sequential model with its fused nodes
// and with the graph forms (SequentialOptions.GraphForms) from the same
// seed and checks that the loss and every parameter's gradient agree to
// 1e-9 relative, for both encoders and both variants (float64 Euler, so that
// only the fused boundary, prior, KL and dense nodes differ).
func TestGraphFormsMatchFused(t *testing.T) {
	for _, tc := range []struct {
		enc     string
		variant Variant
	}{{EncoderPaper, VariantPaper}, {EncoderContext, VariantPaper}, {EncoderContext, VariantPhaseState}} {
		enc := tc.enc + "/" + string(tc.variant)
		var loss [2]float64
		var grads [2]map[string][]float64
		for k, gf := range []bool{true, false} {
			o := DefaultSequentialOptions()
			o.Encoder, o.Variant, o.GraphForms, o.WKL, o.ODE.DType = tc.enc, tc.variant, gf, 0.3, ode.Float64
			m, err := NewSequential(o, rand.New(rand.NewSource(21)))
			if err != nil {
				t.Fatal(err)
			}
			bt, err := m.Build(4, 6, true)
			if err != nil {
				t.Fatal(err)
			}
			seqs := make([][][]float64, 4)
			for s := range seqs {
				for i := 0; i < 6; i++ {
					seqs[s] = append(seqs[s], []float64{math.Sin(0.7*float64(i+s)) + 0.05})
				}
			}
			if err := bt.Set(seqs); err != nil {
				t.Fatal(err)
			}
			if err := bt.Machine.Run(); err != nil {
				t.Fatal(err)
			}
			loss[k] = autodiff.Value(bt.Loss)[0]
			grads[k] = map[string][]float64{}
			for i, p := range bt.Params {
				grads[k][p.Name] = append([]float64(nil), bt.Machine.Grad(i)...)
			}
		}
		if math.Abs(loss[0]-loss[1]) > 1e-12*math.Abs(loss[0]) {
			t.Fatalf("%s: loss %v (graph forms) vs %v (fused)", enc, loss[0], loss[1])
		}
		if len(grads[0]) != len(grads[1]) {
			t.Fatalf("%s: %d vs %d parameters", enc, len(grads[0]), len(grads[1]))
		}
		for name, g := range grads[0] {
			scale := 0.0
			for _, v := range g {
				scale = math.Max(scale, math.Abs(v))
			}
			for i, v := range g {
				if d := math.Abs(v - grads[1][name][i]); d > 1e-9*math.Max(scale, 1e-12) {
					t.Fatalf("%s: d/d%s[%d]: graph forms %v, fused %v", enc, name, i, v, grads[1][name][i])
				}
			}
		}
	}
}
