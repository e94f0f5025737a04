package strodehead

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
	hd, _ := testHead(3, func(c *Config) { c.State, c.PriorHidden, c.InputDim = 12, 9, 5 })
	o := hd.Cfg
	rng := rand.New(rand.NewSource(5))
	const n = 150 // more than gaussRowBlock: whole blocks and a partial one
	for j := range hd.PriorVar.B.Data {
		hd.PriorVar.B.Data[j] = -30 + 40*float64(j)/float64(o.State-1)
	}
	h := optim.NewParam("h", n, o.State, optim.Free)
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
	compareFloat32(t, 1e-5, func(net *nn.Net) (*autodiff.Node, []*autodiff.Node) {
		cost := hd.PriorLogLik(net, net.P(h), net.Const("x", x, n, o.InputDim), net.Const("w", w, n, 1))
		return cost, []*autodiff.Node{cost}
	})
}
