package strode

import (
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// Prior is the cumulative intensity of STRODE's regenerative point-process
// prior (DESIGN.md §3, unconditional as in the paper):
//
//	c(t) = U3·tanh(U2·(U1·t + β1) + β2),  U1, U2, U3 ≥ 0,
//	φ(t) = softplus(ρ)·t + softplus(c(t) + d) − softplus(c(0) + d),
//
// so φ(0) = 0, λ(t) = φ'(t) = softplus(ρ) + σ(c(t) + d)·c'(t) > 0 and
// p(t) = φ'(t)·e^{−φ(t)} is a proper density (φ(∞) = ∞).
type Prior struct {
	U1, B1, U2, B2, U3 *optim.Param // 1×H, 1×H, H×H, 1×H, H×1
	Rho, D             *optim.Param // 1×1 scalars
}

// NewPrior adds φ's parameters with hidden size h: weights +|Glorot|,
// biases and scalars zero (base rate softplus(0) = log 2).
func NewPrior(ps *nn.Params, name string, h int, rng *rand.Rand) *Prior {
	nonneg := optim.NonNeg
	return &Prior{
		U1: ps.New(name+".U1", 1, h, nonneg, rng), B1: ps.Zero(name+".beta1", 1, h),
		U2: ps.New(name+".U2", h, h, nonneg, rng), B2: ps.Zero(name+".beta2", 1, h),
		U3:  ps.New(name+".U3", h, 1, nonneg, rng),
		Rho: ps.Zero(name+".rho", 1, 1), D: ps.Zero(name+".d", 1, 1),
	}
}

// C is c(t) and c'(t) for a column t (R×1), the derivative by tangent
// propagation: du/dt = U1·U2, c' = ((1 − tanh²u) ⊙ du/dt)·U3 ≥ 0.
func (p *Prior) C(n *nn.Net, t *autodiff.Node) (c, dc *autodiff.Node) {
	u1, u2, u3 := n.P(p.U1), n.P(p.U2), n.P(p.U3)
	h := n.Tanh(n.AddRow(n.MatMul(n.AddRow(n.MatMul(t, u1), n.P(p.B1)), u2), n.P(p.B2)))
	c = n.MatMul(h, u3)
	dh := n.MulRow(oneMinusSquare(n, h), n.MatMul(u1, u2))
	return c, n.MatMul(dh, u3)
}

// Phi is φ(t) and λ(t) = φ'(t) for a column t (R×1).
func (p *Prior) Phi(n *nn.Net, t *autodiff.Node) (phi, lambda *autodiff.Node) {
	c, dc := p.C(n, t)
	d := n.P(p.D)
	base := n.Softplus(n.P(p.Rho))
	c0, _ := p.C(n, n.Const("zero", []float64{0}, 1, 1))
	cd := n.AddRow(c, d)
	phi = n.AddRow(n.Add(n.MulRow(t, base), n.Softplus(cd)), n.Neg(n.Softplus(n.Add(c0, d))))
	lambda = n.AddRow(n.Mul(n.Sigmoid(cd), dc), base)
	return phi, lambda
}

// Density is p(t) = φ'(t)·e^{−φ(t)} at the fixed times nodes, a 1×len row.
func (p *Prior) Density(n *nn.Net, nodes []float64) *autodiff.Node {
	tk := n.Const("kl.nodes", nodes, len(nodes), 1)
	phi, lambda := p.Phi(n, tk)
	return n.T(n.Mul(lambda, n.Exp(n.Neg(phi))))
}
