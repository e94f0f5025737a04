package strode

import (
	"flag"
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

// logGuard is added inside every logarithm of the KL term: log(x + 1e-6).
const logGuard = 1e-6

// KLOptions configures the KL term.
type KLOptions struct {
	Epsilon float64 // Euler step ε of Theorem 1; K = 1/ε
}

// Register adds the options to fs.
func (o *KLOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.Epsilon, "kl-epsilon", o.Epsilon, "Euler step of the KL term (K = 1/eps quadrature steps)")
}

// KL is the regulariser of Theorem 1 (DESIGN.md §3). With m = −e^{−t} and
// M(m) = −log(−m), on the nodes m_k = −1 + kε, k = 1 … K−1,
//
//	g(m) = −q(M)/m · log(q(M)/p(M)),  G_k = G_{k−1} + ε·g(m_k),  G_0 = 0,
//	term = G(−ε) + |G(−2ε) − G(−ε)| = G_{K−1} + ε·|g(m_{K−1})|.
//
// Since −1/m_k = e^{M_k}, g_k = q_k·e^{M_k}·(log(q_k + 1e-6) − log(p_k + 1e-6)).
// The node m = −1 (t = 0, where q is infinite) is never used.
type KL struct {
	Eps   float64
	nodes []float64 // t_k = M(m_k)
	w     []float64 // e^{t_k} = −1/m_k
}

// NewKL returns the KL term for step eps; 1/eps must be an integer ≥ 3.
func NewKL(o KLOptions) (*KL, error) {
	k := math.Round(1 / o.Epsilon)
	if !(o.Epsilon > 0) || k < 3 || math.Abs(k*o.Epsilon-1) > 1e-9 {
		return nil, fmt.Errorf("strode: --kl-epsilon=%v: 1/eps must be an integer ≥ 3", o.Epsilon)
	}
	kl := &KL{Eps: o.Epsilon}
	for i := 1; i < int(k); i++ {
		m := -1 + float64(i)*o.Epsilon
		kl.nodes = append(kl.nodes, -math.Log(-m))
		kl.w = append(kl.w, -1/m)
	}
	return kl, nil
}

// Nodes are the times t_k = M(m_k), k = 1 … K−1, at which q and p are
// evaluated.
func (kl *KL) Nodes() []float64 { return kl.nodes }

// Term is the KL term per row: q is R×(K−1) (posterior densities at the
// nodes, one row per sample), p a 1×(K−1) row (prior density at the nodes);
// the result is R×1.
func (kl *KL) Term(n *autodiff.Graph, q, p *autodiff.Node) *autodiff.Node {
	k := len(kl.nodes)
	logq := n.Log(n.AddConst(q, logGuard))
	logp := n.Log(n.AddConst(p, logGuard))
	g := n.MulRow(n.Mul(q, n.AddRow(logq, n.Neg(logp))), n.Const("kl.weights", kl.w, 1, k))
	ones := make([]float64, k)
	last := make([]float64, k)
	for i := range ones {
		ones[i] = 1
	}
	last[k-1] = 1
	sum := n.MatMul(g, n.Const("kl.ones", ones, k, 1))
	gl := n.MatMul(g, n.Const("kl.last", last, k, 1))
	return n.Scale(n.Add(sum, n.Abs(gl)), kl.Eps)
}

// TermFunc is the same quadrature for densities given as functions, in plain
// float64 (the reference for Term and for the convergence test).
func (kl *KL) TermFunc(q, p func(t float64) float64) float64 {
	var sum, g float64
	for i, t := range kl.nodes {
		qt := q(t)
		g = qt * kl.w[i] * (math.Log(qt+logGuard) - math.Log(p(t)+logGuard))
		sum += g
	}
	return kl.Eps * (sum + math.Abs(g))
}
