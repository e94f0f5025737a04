package strodehead

import (
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// The float32 head entry (headIn: h0 = e·P and b(z) in one node) against
// the graph's float64 e·P and boundaryZ that the gradient checks verify,
// for both forms of b(z): values and the gradients of e, P and b(z)'s
// weights to 1e-5 of the largest of each (float32 products over H = 24 and
// h = 7; measured: below 6e-7).
func TestHeadInMatchesFloat64(t *testing.T) {
	for _, phiZ := range []string{PhiZNonPos, PhiZFree} {
		t.Run(phiZ, func(t *testing.T) {
			hd, ps := testHead(4, func(c *Config) { c.In, c.State, c.PhiHidden, c.PhiZ = 24, 10, 7, phiZ })
			o := hd.Cfg
			rng := rand.New(rand.NewSource(6))
			for _, p := range ps.List {
				if p.Rows == 1 && p.Cols > 1 {
					for j := range p.Data {
						p.Data[j] += 0.3 * rng.NormFloat64()
					}
				}
			}
			const n = 30
			e := optim.NewParam("e", n, o.In, optim.Free)
			for i := range e.Data {
				e.Data[i] = rng.NormFloat64()
			}
			r1, r2 := make([]float64, n*o.State), make([]float64, n)
			for i := range r1 {
				r1[i] = rng.NormFloat64()
			}
			for i := range r2 {
				r2[i] = rng.NormFloat64()
			}
			compareFloat32(t, 1e-5, func(net *nn.Net) (*autodiff.Node, []*autodiff.Node) {
				h0, bz, err := hd.entry(net, net.P(e), nil)
				if err != nil {
					t.Fatal(err)
				}
				cost := net.Add(net.Sum(net.Mul(h0, net.Const("r1", r1, n, o.State))), net.Sum(net.Mul(bz, net.Const("r2", r2, n, 1))))
				return cost, []*autodiff.Node{h0, bz}
			})
		})
	}
}
