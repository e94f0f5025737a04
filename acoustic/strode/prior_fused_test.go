package strode

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
)

// TestPriorDensityFused compares DensityFused with the graph-built Density
// (values within 1e-13, gradients of a weighted sum within 1e-12 relative)
// with non-zero biases and scalars, and checks the fused gradients against
// finite differences.
func TestPriorDensityFused(t *testing.T) {
	kl, err := NewKL(KLOptions{Epsilon: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	w := randomCol(rand.New(rand.NewSource(3)), len(kl.Nodes()), -1, 1)
	var vals [2][]float64
	var grads [2]map[string][]float64 // by parameter name: the binding orders differ
	for k, fused := range []bool{false, true} {
		rng := rand.New(rand.NewSource(11))
		var ps nn.Params
		p := NewPrior(&ps, "prior", 5, rng)
		for _, q := range []*[]float64{&p.B1.Data, &p.B2.Data, &p.Rho.Data, &p.D.Data} {
			copy(*q, randomCol(rng, len(*q), -0.5, 0.5))
		}
		n := nn.NewNet()
		var dens *autodiff.Node
		if fused {
			dens = p.DensityFused(n, kl.Nodes())
		} else {
			dens = p.Density(n, kl.Nodes())
		}
		cost := n.Sum(n.Mul(dens, n.Const("w", w, 1, len(w))))
		m, params := compile(t, n, cost)
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		vals[k] = append([]float64(nil), autodiff.Value(dens)...)
		grads[k] = map[string][]float64{}
		for i, q := range params {
			grads[k][q.Name] = append([]float64(nil), m.Grad(i)...)
		}
		if fused {
			checkGrads(t, "prior-density", m, cost, params, 16)
		}
	}
	for i := range vals[0] {
		if math.Abs(vals[0][i]-vals[1][i]) > 1e-13 {
			t.Fatalf("p(t_%d): graph %v, fused %v", i, vals[0][i], vals[1][i])
		}
	}
	if len(grads[0]) != 7 || len(grads[1]) != 7 {
		t.Fatalf("gradients for %d and %d parameters, want 7", len(grads[0]), len(grads[1]))
	}
	for name, g := range grads[0] {
		for i := range g {
			a, b := g[i], grads[1][name][i]
			if math.Abs(a-b) > 1e-12*(1+math.Abs(a)) {
				t.Fatalf("d/d%s[%d]: graph %v, fused %v", name, i, a, b)
			}
		}
	}
}
