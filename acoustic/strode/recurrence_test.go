package strode

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// TestGapsMatchNext compares the fused boundary recurrence (Boundary.Gaps)
// with the same steps built from Boundary.Next, values and the gradients of
// a weighted sum of the gaps with respect to Φ's weights and b(z), with
// sg(t) (training) and without it (FullGradient, the tests' exact derivative):
// within 1e-12 of each other. The gradient of the fused node is also
// checked against finite differences (with FullGradient).
func TestGapsMatchNext(t *testing.T) {
	const batch, steps, hid = 5, 6, 4
	for _, full := range []bool{false, true} {
		build := func(fused bool) (*nn.Net, *autodiff.Node, *autodiff.Node) {
			rng := rand.New(rand.NewSource(7))
			var ps nn.Params
			b := NewBoundary(&ps, "phi", 3, hid, rng)
			b.FullGradient = full
			bzp := ps.New("bz", steps*batch, 1, optim.Free, rng)
			copy(bzp.Data, randomCol(rng, steps*batch, -1, 1))
			n := nn.NewNet()
			bz := n.P(bzp)
			var gaps *autodiff.Node
			if fused {
				gaps = b.Gaps(n, bz, batch)
			} else {
				tm := n.Const("t0", make([]float64, batch), batch, 1)
				var gs []*autodiff.Node
				for i := 0; i < steps; i++ {
					var g *autodiff.Node
					tm, g = b.Next(n, tm, n.Rows(bz, i*batch, (i+1)*batch))
					gs = append(gs, g)
				}
				gaps = n.ConcatRows(gs...)
			}
			w := n.Const("w", randomCol(rng, steps*batch, -1, 1), steps*batch, 1)
			// Each gap depends on the earlier ones through a(t), so the
			// gradient along t is exercised as well.
			cost := n.Sum(n.Mul(n.Square(gaps), w))
			return n, cost, gaps
		}
		var vals [2][]float64
		var grads [2][][]float64
		for k, fused := range []bool{false, true} {
			n, cost, gaps := build(fused)
			m, ps := compile(t, n, cost)
			if err := m.Run(); err != nil {
				t.Fatal(err)
			}
			vals[k] = append([]float64(nil), autodiff.Value(gaps)...)
			for i := range ps {
				grads[k] = append(grads[k], append([]float64(nil), m.Grad(i)...))
			}
			if fused && full {
				checkGrads(t, "boundary-recurrence", m, cost, ps, 16)
			}
		}
		for i := range vals[0] {
			if math.Abs(vals[0][i]-vals[1][i]) > 1e-12 {
				t.Fatalf("FullGradient=%v: gap %d: graph %v, fused %v", full, i, vals[0][i], vals[1][i])
			}
		}
		for p := range grads[0] {
			for i := range grads[0][p] {
				a, b := grads[0][p][i], grads[1][p][i]
				if math.Abs(a-b) > 1e-12*(1+math.Abs(a)) {
					t.Fatalf("FullGradient=%v: gradient %d[%d]: graph %v, fused %v", full, p, i, a, b)
				}
			}
		}
	}
}
