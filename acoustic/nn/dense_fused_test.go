package nn

import (
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/optim"
)

// TestDenseFused compares MLP.ApplyFused, and a FusedDense stack without
// biases and with a tanh layer, with their graph forms (values within
// 1e-12, gradients by parameter within 1e-10 relative) and checks the fused
// gradients against finite differences.
func TestDenseFused(t *testing.T) {
	for _, which := range []string{"mlp", "linear-tanh-linear"} {
		var vals [2][]float64
		var grads [2]map[string][]float64
		for k, fused := range []bool{false, true} {
			rng := rand.New(rand.NewSource(17))
			var ps Params
			mlp := NewMLP(&ps, "enc", 3, 5, 2, rng)
			for _, l := range mlp.Layers {
				copy(l.B.Data, randomCol(rng, len(l.B.Data), -0.3, 0.3))
			}
			v1 := ps.New("v1", 3, 4, optim.Free, rng)
			v2 := ps.New("v2", 4, 4, optim.Free, rng)
			v3 := ps.New("v3", 4, 1, optim.Free, rng)
			xp := ps.New("x", 7, 3, optim.Free, rng)
			n := NewNet()
			var y *autodiff.Node
			switch {
			case which == "mlp" && fused:
				y = mlp.ApplyFused(n, n.P(xp))
			case which == "mlp":
				y = mlp.Apply(n, n.P(xp))
			case fused:
				y = FusedDense(n, "stack", n.P(xp), DenseLayer{W: v1}, DenseLayer{W: v2, Act: ActTanh}, DenseLayer{W: v3})
			default:
				y = n.MatMul(n.Tanh(n.MatMul(n.MatMul(n.P(xp), n.P(v1)), n.P(v2))), n.P(v3))
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

// TestDenseFusedShapeErrors: weights that do not follow the input's width,
// and a bias of the wrong width, are refused when the node is built, with
// an error naming the layer.
func TestDenseFusedShapeErrors(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var ps Params
	x := ps.New("x", 2, 3, optim.Free, rng)
	w := ps.New("w", 3, 2, optim.Free, rng)
	bad := ps.New("bad", 4, 2, optim.Free, rng)
	b3 := ps.Zero("b3", 1, 3)
	for _, tc := range []struct {
		name   string
		layers []DenseLayer
		want   string
	}{
		{"weight", []DenseLayer{{W: w}, {W: bad}}, "layer 1: weight shape"},
		{"bias", []DenseLayer{{W: w, B: b3}}, "layer 0: bias"},
	} {
		n := NewNet()
		if y := FusedDense(n, "stack", n.P(x), tc.layers...); y != nil || n.Err() == nil || !strings.Contains(n.Err().Error(), tc.want) {
			t.Errorf("%s: node %v, error %v; want an error containing %q", tc.name, y, n.Err(), tc.want)
		}
	}
}
