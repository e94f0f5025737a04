package nn

import (
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/autodiff/gradcheck"
	"github.com/strode-asr/strode/acoustic/optim"
)

// checkGrads is gradcheck.Check: the reverse pass against central
// finite differences.
func checkGrads(t *testing.T, name string, m *autodiff.Machine, cost *autodiff.Node, ps []*optim.Param, maxPer int) {
	t.Helper()
	gradcheck.Check(t, name, m, cost, ps, maxPer)
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
