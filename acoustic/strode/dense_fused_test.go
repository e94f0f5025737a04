package strode

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/graph"
	"github.com/strode-asr/strode/acoustic/optim"
)

// TestDenseFused compares MLP.ApplyFused and Boundary.BFused with their
// graph forms (values within 1e-12, gradients by parameter within 1e-10
// relative) and checks the fused gradients against finite differences.
func TestDenseFused(t *testing.T) {
	for _, which := range []string{"mlp", "boundary-b"} {
		var vals [2][]float64
		var grads [2]map[string][]float64
		for k, fused := range []bool{false, true} {
			rng := rand.New(rand.NewSource(17))
			var ps Params
			mlp := NewMLP(&ps, "enc", 3, 5, 2, rng)
			for _, l := range mlp.Layers {
				copy(l.B.Data, randomCol(rng, len(l.B.Data), -0.3, 0.3))
			}
			b := NewBoundary(&ps, "phi", 3, 4, rng)
			xp := ps.New("x", 7, 3, optim.Free, rng)
			n := NewNet()
			var y *graph.Node
			switch {
			case which == "mlp" && fused:
				y = mlp.ApplyFused(n, n.P(xp))
			case which == "mlp":
				y = mlp.Apply(n, n.P(xp))
			case fused:
				y = b.BFused(n, n.P(xp))
			default:
				y = b.B(n, n.P(xp))
			}
			s := y.Shape()
			cost := n.Sum(n.Mul(n.Square(y), n.Const("w", randomCol(rng, s[0]*s[1], -1, 1), s[0], s[1])))
			m, params := compile(t, n, cost)
			if err := m.Run(); err != nil {
				t.Fatal(err)
			}
			vals[k] = append([]float64(nil), graph.Value(y)...)
			grads[k] = map[string][]float64{}
			for i, q := range params {
				grads[k][q.Name] = append([]float64(nil), m.Grad(i)...)
			}
			if fused {
				checkGrads(t, which, m, cost, params, 16)
			}
		}
		for i := range vals[0] {
			if math.Abs(vals[0][i]-vals[1][i]) > 1e-12 {
				t.Fatalf("%s: value %d: graph %v, fused %v", which, i, vals[0][i], vals[1][i])
			}
		}
		if len(grads[0]) != len(grads[1]) {
			t.Fatalf("%s: gradients for %d and %d parameters", which, len(grads[0]), len(grads[1]))
		}
		for name, g := range grads[0] {
			for i := range g {
				a, b := g[i], grads[1][name][i]
				if math.Abs(a-b) > 1e-10*(1+math.Abs(a)) {
					t.Fatalf("%s: d/d%s[%d]: graph %v, fused %v", which, name, i, a, b)
				}
			}
		}
	}
}
