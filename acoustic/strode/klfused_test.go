package strode

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// TestKLTermFused compares Boundary.KLTerm with kl.Term of the graph-built
// Boundary.Density (values within 1e-12, gradients with respect to Φ's
// weights, b(z) and the prior row within 1e-10 relative), at ε = 0.1 and
// 0.25, and checks the fused gradients against finite differences.
func TestKLTermFused(t *testing.T) {
	for _, eps := range []float64{0.1, 0.25} {
		kl, err := NewKL(KLOptions{Epsilon: eps})
		if err != nil {
			t.Fatal(err)
		}
		nk := len(kl.Nodes())
		var vals [2][]float64
		var grads [2]map[string][]float64
		for k, fused := range []bool{false, true} {
			rng := rand.New(rand.NewSource(13))
			var ps nn.Params
			b := NewBoundary(&ps, "phi", 3, 5, rng)
			bzp := ps.New("bz", 7, 1, optim.Free, rng)
			copy(bzp.Data, randomCol(rng, 7, -1.5, 1.5))
			pp := ps.New("p", 1, nk, optim.Free, rng)
			copy(pp.Data, randomCol(rng, nk, 0.05, 2))
			n := nn.NewNet()
			var term *autodiff.Node
			if fused {
				term = b.KLTerm(n, kl, n.P(bzp), n.P(pp))
			} else {
				term = kl.Term(n.Graph, b.Density(n, kl.Nodes(), n.P(bzp)), n.P(pp))
			}
			cost := n.Sum(n.Mul(term, n.Const("w", randomCol(rng, 7, 0.5, 1.5), 7, 1)))
			m, params := compile(t, n, cost)
			if err := m.Run(); err != nil {
				t.Fatal(err)
			}
			vals[k] = append([]float64(nil), autodiff.Value(term)...)
			grads[k] = map[string][]float64{}
			for i, q := range params {
				grads[k][q.Name] = append([]float64(nil), m.Grad(i)...)
			}
			if fused {
				checkGrads(t, "kl-term", m, cost, params, 16)
			}
		}
		for i := range vals[0] {
			if math.Abs(vals[0][i]-vals[1][i]) > 1e-12*(1+math.Abs(vals[0][i])) {
				t.Fatalf("ε %v: term %d: graph %v, fused %v", eps, i, vals[0][i], vals[1][i])
			}
		}
		if len(grads[0]) != 5 || len(grads[1]) != 5 {
			t.Fatalf("gradients for %d and %d parameters, want 5", len(grads[0]), len(grads[1]))
		}
		for name, g := range grads[0] {
			for i := range g {
				a, b := g[i], grads[1][name][i]
				if math.Abs(a-b) > 1e-10*(1+math.Abs(a)) {
					t.Fatalf("ε %v: d/d%s[%d]: graph %v, fused %v", eps, name, i, a, b)
				}
			}
		}
	}
}
