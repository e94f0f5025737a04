package nn

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/optim"
)

// gradTol is the acceptance bound on the relative error of a gradient entry.
const gradTol = 1e-3

// checkGrads compares the machine's gradients of the scalar cost with
// central finite differences for every entry of every parameter (at most
// maxPer entries per parameter, chosen at random). The relative error is
// |g − fd| / max(|g|, |fd|, floor) with an absolute floor for entries whose
// gradient is ~0.
func checkGrads(t *testing.T, name string, m *autodiff.Machine, cost *autodiff.Node, ps []*optim.Param, maxPer int) {
	t.Helper()
	if err := m.Run(); err != nil {
		t.Fatal(err)
	}
	grads := make([][]float64, len(ps))
	for i := range ps {
		grads[i] = append([]float64(nil), m.Grad(i)...)
	}
	if testing.Short() {
		maxPer = min(maxPer, 4)
	}
	rng := rand.New(rand.NewSource(99))
	const h = 1e-6
	const floor = 1e-4
	worst := 0.0
	for i, p := range ps {
		idx := rng.Perm(len(p.Data))
		if len(idx) > maxPer {
			idx = idx[:maxPer]
		}
		for _, j := range idx {
			old := p.Data[j]
			p.Data[j] = old + h
			if err := m.Run(); err != nil {
				t.Fatal(err)
			}
			up := autodiff.Value(cost)[0]
			p.Data[j] = old - h
			if err := m.Run(); err != nil {
				t.Fatal(err)
			}
			down := autodiff.Value(cost)[0]
			p.Data[j] = old
			fd := (up - down) / (2 * h)
			g := grads[i][j]
			rel := math.Abs(g-fd) / math.Max(math.Max(math.Abs(g), math.Abs(fd)), floor)
			worst = math.Max(worst, rel)
			if rel > gradTol {
				t.Errorf("%s: d/d%s[%d] = %.8g, finite difference %.8g (rel. error %.2g)", name, p.Name, j, g, fd, rel)
			}
		}
	}
	t.Logf("%s: worst relative error %.2g over %d parameters", name, worst, len(ps))
}

// compile binds and compiles the graph of n with respect to all its params.
func compile(t *testing.T, n *Net, cost *autodiff.Node) (*autodiff.Machine, []*optim.Param) {
	t.Helper()
	ps, nodes := n.Bound()
	m, err := n.Compile(cost, nodes)
	if err != nil {
		t.Fatal(err)
	}
	return m, ps
}

func randomCol(rng *rand.Rand, r int, lo, hi float64) []float64 {
	out := make([]float64, r)
	for i := range out {
		out[i] = lo + (hi-lo)*rng.Float64()
	}
	return out
}
