package strode

import (
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// Boundary is STRODE's posterior boundary network
//
//	a(t) = W3·tanh(W2·(W1·t)),  b(z) = V3·tanh(V2·(V1·z)),
//	Φ(t, z) = sg(t) + softplus(a(t) + b(z)),
//
// with every weight ≤ 0 and no biases (DESIGN.md §3). Weights are stored for
// row-vector batches (x·W), i.e. as the transposes of the column-form
// matrices. Then a'(t) = W3·diag(1 − tanh²)·W2·W1 ≤ 0 (three non-positive
// factors) and Φ'(t) = σ(a + b)·a'(t) ≤ 0.
type Boundary struct {
	W1, W2, W3 *optim.Param // 1×H, H×H, H×1
	V1, V2, V3 *optim.Param // D×H, H×H, H×1

	// Product computes a(t)'s and b(z)'s products over the batch (x·w,
	// rows × hidden); nil: the graph's float64 MatMul. A caller that trains
	// in float32 sets a float32 product (the acoustic model's head).
	Product func(n *nn.Net, x, w *autodiff.Node) *autodiff.Node

	// FullGradient replaces sg(t) by t in the recurrence, so that finite
	// differences of a forward pass check every gradient path; training
	// keeps sg (false).
	FullGradient bool
}

// mm is x·w through Product.
func (b *Boundary) mm(n *nn.Net, x, w *autodiff.Node) *autodiff.Node {
	if b.Product != nil {
		return b.Product(n, x, w)
	}
	return n.MatMul(x, w)
}

// NewBoundary adds Φ's parameters for latent size dz and hidden size h,
// initialised as −|Glorot|.
func NewBoundary(ps *nn.Params, name string, dz, h int, rng *rand.Rand) *Boundary {
	np := optim.NonPos
	return &Boundary{
		W1: ps.New(name+".W1", 1, h, np, rng), W2: ps.New(name+".W2", h, h, np, rng), W3: ps.New(name+".W3", h, 1, np, rng),
		V1: ps.New(name+".V1", dz, h, np, rng), V2: ps.New(name+".V2", h, h, np, rng), V3: ps.New(name+".V3", h, 1, np, rng),
	}
}

// A is a(t) and its derivative a'(t) for a column of times t (R×1), the
// derivative by propagating the tangent dt/dt = 1 through the layers:
// du/dt = W1·W2 (a row), da/dt = ((1 − tanh²u) ⊙ du/dt)·W3.
func (b *Boundary) A(n *nn.Net, t *autodiff.Node) (a, da *autodiff.Node) {
	w1, w2, w3 := n.P(b.W1), n.P(b.W2), n.P(b.W3)
	h := n.Tanh(n.MatMul(n.MatMul(t, w1), w2))
	a = n.MatMul(h, w3)
	du := n.MatMul(w1, w2)
	dh := n.MulRow(oneMinusSquare(n, h), du)
	return a, n.MatMul(dh, w3)
}

// value is a(t) alone: Next needs no a'(t), and nodes built but unused
// would still run on every pass of the machine.
func (b *Boundary) value(n *nn.Net, t *autodiff.Node) *autodiff.Node {
	return b.mm(n, n.Tanh(b.mm(n, b.mm(n, t, n.P(b.W1)), n.P(b.W2))), n.P(b.W3))
}

// B is b(z) for a batch of latent vectors z (R×D), a column R×1.
func (b *Boundary) B(n *nn.Net, z *autodiff.Node) *autodiff.Node {
	return b.mm(n, n.Tanh(b.mm(n, b.mm(n, z, n.P(b.V1)), n.P(b.V2))), n.P(b.V3))
}

// BFused is B, b(z) = tanh(z·V1·V2)·V3, as one fused graph node.
func (b *Boundary) BFused(n *nn.Net, z *autodiff.Node) *autodiff.Node {
	return nn.FusedDense(n, "boundary-b", z, nn.DenseLayer{W: b.V1}, nn.DenseLayer{W: b.V2, Act: nn.ActTanh}, nn.DenseLayer{W: b.V3})
}

// Next is one boundary step t' = Φ(t, z) = sg(t) + gap with gap =
// softplus(a(t) + b(z)); bz is B(z). It returns t' and the gap, both R×1.
func (b *Boundary) Next(n *nn.Net, t, bz *autodiff.Node) (next, gap *autodiff.Node) {
	a := b.value(n, t)
	gap = n.Softplus(n.Add(a, bz))
	if b.FullGradient {
		return n.Add(t, gap), gap
	}
	return n.Add(n.StopGradient(t), gap), gap
}

// NextFrom is Next for rows that all start at the same time t0 (the
// acoustic head's ε0): a(t0) does not depend on z, so it is computed once
// (1×1) and added to every row's b(z), where Next would run Φ's a-network
// on a column of identical times. It returns t' = t0 + gap and the gap.
func (b *Boundary) NextFrom(n *nn.Net, t0 float64, bz *autodiff.Node) (next, gap *autodiff.Node) {
	a := b.value(n, n.Const("t0", []float64{t0}, 1, 1))
	gap = n.Softplus(n.AddRow(bz, a))
	return n.AddConst(gap, t0), gap
}

// Deriv is Φ'(t) = σ(a(t) + b(z))·a'(t) for columns t and bz (R×1).
func (b *Boundary) Deriv(n *nn.Net, t, bz *autodiff.Node) *autodiff.Node {
	a, da := b.A(n, t)
	return n.Mul(n.Sigmoid(n.Add(a, bz)), da)
}

// Density is the posterior q(t | z) = −Φ'(t)/t at the fixed times nodes
// (K−1 of them) for every row of bz (R×1): an R×(K−1) matrix. a(t) does not
// depend on z, so it is evaluated once on the nodes and broadcast.
func (b *Boundary) Density(n *nn.Net, nodes []float64, bz *autodiff.Node) *autodiff.Node {
	k := len(nodes)
	tk := n.Const("kl.nodes", nodes, k, 1)
	a, da := b.A(n, tk)
	coef := n.T(n.Neg(n.Div(da, tk))) // −a'(t_k)/t_k, a 1×(K−1) row
	return n.MulRow(n.Sigmoid(n.Outer(bz, n.T(a))), coef)
}

// oneMinusSquare is 1 − h², the derivative of tanh at its pre-activation.
func oneMinusSquare(n *nn.Net, h *autodiff.Node) *autodiff.Node {
	return n.AddConst(n.Neg(n.Square(h)), 1)
}
