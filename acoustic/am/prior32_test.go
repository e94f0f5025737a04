package am

import (
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// The float32 prior network and Gaussian term (priorGaussian32) against the
// float64 layers and gaussianLogLik that the gradient checks verify: the
// loss and the gradients of h̃ and every prior weight to 1e-5 of the largest
// of each (measured: below 4e-7), over a's whole range — from the
// variance's floor (a = −30: e^a rounds 1 + e^a to 1) through softplus's
// bend to large a — with some frames masked out, over more rows than one
// block of the elementwise passes.
func TestPriorGaussian32MatchesFloat64(t *testing.T) {
	o := tinyOptions(KindSTRODE)
	o.ODEState, o.PriorHidden, o.InputDim = 12, 9, 5
	m, err := New(o, 3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(5))
	const n = 150 // more than gaussRowBlock: whole blocks and a partial one
	for j := range m.arch.(*strodeArch).PriorVar.B.Data {
		m.arch.(*strodeArch).PriorVar.B.Data[j] = -30 + 40*float64(j)/float64(o.ODEState-1)
	}
	h := optim.NewParam("h", n, o.ODEState, optim.Free)
	for i := range h.Data {
		h.Data[i] = rng.NormFloat64()
	}
	x := make([]float64, n*o.InputDim)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	w := make([]float64, n)
	for r := range w {
		w[r] = float64(r%4) / 60 // every fourth frame masked out
	}
	float32VsFloat64(t, 1e-5, func(net *nn.Net) (*autodiff.Node, []*autodiff.Node) {
		cost := m.arch.(*strodeArch).priorLogLik(net, net.P(h), net.Const("x", x, n, o.InputDim), net.Const("w", w, n, 1))
		return cost, []*autodiff.Node{cost}
	})
}
