package seqvideo

import (
	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/optim"
)

// rotationHorizon is the number of gaps one solve spans in the rotation
// variant.
const rotationHorizon = 3

// newRotation adds the rotation variant's generator W (d×d): W − Wᵀ starts
// as d/2 planes turning at speeds 1 … 4 (plane k at 1 + k mod 4).
func newRotation(ps *nn.Params, d int) *optim.Param {
	w := ps.Zero("ode.rot.weight", d, d)
	for k := 0; 2*k+1 < d; k++ {
		sp := float64(1 + k%4)
		w.Data[(2*k)*d+2*k+1] = sp / 2
		w.Data[(2*k+1)*d+2*k] = -sp / 2
	}
	return w
}

// rotationLoss sets bt.Pred, bt.MSE and bt.Loss (without the KL term) for
// the phase-state variant: z_i itself and the states turned from it,
// dh/dτ = h·(W − Wᵀ), over the next gap and on over the two after it, are
// decoded in one decoder pass; the loss is the mean of the four MSEs (x_i
// and the next three frames). bt.MSE stays the reference's one-step MSE.
func (m *Model) rotationLoss(bt *Batch, net *nn.Net, x, y, z, spans *autodiff.Node, so ode.Options) {
	b, n := bt.B, bt.N
	w := net.P(m.RotW)
	a := net.Sub(w, net.T(w))
	f := func(h *autodiff.Node) *autodiff.Node { return net.MatMul(h, a) }
	solver := ode.Solver{Opts: so}
	h := solver.Solve(net.Graph, f, z, spans)
	states := []*autodiff.Node{z, h}
	targets := []*autodiff.Node{x, y}
	for k := 2; k <= rotationHorizon && k < n; k++ {
		// rows of h: the state reached from z_i, i = 0 … n−k; on over g_{i+k} (spans block i+k−1).
		h = solver.Solve(net.Graph, f, net.Rows(h, 0, (n-k)*b), net.Rows(spans, (k-1)*b, (n-1)*b))
		states = append(states, h)
		targets = append(targets, net.Rows(x, k*b, n*b))
	}
	pred := m.Dec.Apply(net, net.ConcatRows(states...))
	bt.Pred = net.Rows(pred, n*b, 2*n*b)
	bt.MSE = meanSquaredError(net, bt.Pred, y)
	loss := net.Add(meanSquaredError(net, net.Rows(pred, 0, n*b), x), bt.MSE)
	off := 2 * n * b
	for k := 2; k < len(states); k++ {
		r := (n - k) * b
		loss = net.Add(loss, meanSquaredError(net, net.Rows(pred, off, off+r), targets[k]))
		off += r
	}
	bt.Loss = net.Scale(loss, 1/float64(len(states)))
}

// pairB is b(·) of the frame pair (z_{i−1}, z_i), z_{−1} := z_0:
// tanh((z_{i−1}·V1' + z_i·V1”)·V2)·V3 with V1 = [V1'; V1”], so that a gap
// can be read from the change between two frames.
func (m *Model) pairB(net *nn.Net, z *autodiff.Node, b, n int) *autodiff.Node {
	d := m.Opts.Latent()
	bd := m.Boundary
	v1 := net.P(bd.V1)
	prev := net.ConcatRows(net.Rows(z, 0, b), net.Rows(z, 0, (n-1)*b))
	u := net.Add(net.MatMul(prev, net.Rows(v1, 0, d)), net.MatMul(z, net.Rows(v1, d, 2*d)))
	return net.MatMul(net.Tanh(net.MatMul(u, net.P(bd.V2))), net.P(bd.V3))
}
