package strode

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/autodiff/gradcheck"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// checkGrads is gradcheck.Check: the reverse pass against central
// finite differences.
func checkGrads(t *testing.T, name string, m *autodiff.Machine, cost *autodiff.Node, ps []*optim.Param, maxPer int) {
	t.Helper()
	gradcheck.Check(t, name, m, cost, ps, maxPer)
}

// compile binds and compiles the graph of n with respect to all its params.
func compile(t *testing.T, n *nn.Net, cost *autodiff.Node) (*autodiff.Machine, []*optim.Param) {
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

// TestBoundaryDerivative checks Φ'(t) against a finite difference of Φ in t,
// and the parameter gradients of Σ Φ'(t) against finite differences.
func TestBoundaryDerivative(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	var ps nn.Params
	b := NewBoundary(&ps, "phi", 3, 5, rng)
	n := nn.NewNet()
	tt := n.Const("t", randomCol(rng, 6, 0.05, 3), 6, 1)
	z := n.Const("z", randomCol(rng, 18, -1, 1), 6, 3)
	bz := b.B(n, z)
	d := b.Deriv(n, tt, bz)
	cost := n.Sum(n.Mul(d, n.Const("w", randomCol(rng, 6, 0.5, 1.5), 6, 1)))
	m, params := compile(t, n, cost)
	checkGrads(t, "ΣΦ'", m, cost, params, 20)

	// Φ' against (Φ(t+h) − Φ(t−h))/2h, Φ evaluated through Next.
	tv := randomCol(rng, 6, 0.05, 3)
	n2 := nn.NewNet()
	tin, tdata := n2.Input("t", 6, 1)
	zin := n2.Const("z", randomCol(rng, 18, -1, 1), 6, 3)
	bz2 := b.B(n2, zin)
	next, _ := b.Next(n2, tin, bz2)
	der := b.Deriv(n2, tin, bz2)
	m2, err := n2.Compile(n2.Sum(next), nil)
	if err != nil {
		t.Fatal(err)
	}
	eval := func(x []float64) ([]float64, []float64) {
		copy(tdata, x)
		if err := m2.Run(); err != nil {
			t.Fatal(err)
		}
		return append([]float64(nil), autodiff.Value(next)...), append([]float64(nil), autodiff.Value(der)...)
	}
	const h = 1e-6
	up := make([]float64, 6)
	dn := make([]float64, 6)
	for i := range tv {
		up[i], dn[i] = tv[i]+h, tv[i]-h
	}
	_, dv := eval(tv)
	pu, _ := eval(up)
	pd, _ := eval(dn)
	for i := range tv {
		// Φ(t) = sg(t) + softplus(a + b): the identity part has slope 1.
		fd := (pu[i]-pd[i])/(2*h) - 1
		if rel := math.Abs(dv[i]-fd) / math.Max(math.Abs(fd), 1e-4); rel > gradcheck.Tol {
			t.Errorf("Φ'(%v) = %v, finite difference %v", tv[i], dv[i], fd)
		}
	}
}

// TestPriorDerivative checks φ'(t) against a finite difference of φ and the
// parameter gradients of Σ log φ'(t) − φ(t) (the log prior density).
func TestPriorDerivative(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var ps nn.Params
	p := NewPrior(&ps, "prior", 5, rng)
	for _, q := range []*optim.Param{p.B1, p.B2, p.Rho, p.D} {
		for i := range q.Data {
			q.Data[i] = rng.NormFloat64() * 0.5
		}
	}
	n := nn.NewNet()
	tin, tdata := n.Input("t", 7, 1)
	copy(tdata, randomCol(rng, 7, 0.01, 4))
	phi, lam := p.Phi(n, tin)
	cost := n.Sum(n.Sub(n.Log(lam), phi))
	m, params := compile(t, n, cost)
	checkGrads(t, "Σ log p", m, cost, params, 20)

	tv := append([]float64(nil), tdata...)
	const h = 1e-6
	eval := func(d float64) ([]float64, []float64) {
		for i := range tdata {
			tdata[i] = tv[i] + d
		}
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		return append([]float64(nil), autodiff.Value(phi)...), append([]float64(nil), autodiff.Value(lam)...)
	}
	_, l := eval(0)
	up, _ := eval(h)
	dn, _ := eval(-h)
	for i := range tv {
		fd := (up[i] - dn[i]) / (2 * h)
		if rel := math.Abs(l[i]-fd) / math.Abs(fd); rel > gradcheck.Tol {
			t.Errorf("φ'(%v) = %v, finite difference %v", tv[i], l[i], fd)
		}
	}
}

// TestKLGradient checks the gradients of the mean KL term with respect to
// Φ's and φ's parameters.
func TestKLGradient(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var ps nn.Params
	b := NewBoundary(&ps, "phi", 2, 4, rng)
	p := NewPrior(&ps, "prior", 4, rng)
	kl, err := NewKL(KLOptions{Epsilon: 0.1})
	if err != nil {
		t.Fatal(err)
	}
	n := nn.NewNet()
	z := n.Const("z", randomCol(rng, 10, -1, 1), 5, 2)
	q := b.Density(n, kl.Nodes(), b.B(n, z))
	cost := n.Mean(kl.Term(n.Graph, q, p.Density(n, kl.Nodes())))
	m, params := compile(t, n, cost)
	checkGrads(t, "KL", m, cost, params, 20)
}
