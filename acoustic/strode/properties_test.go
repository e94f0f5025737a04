package strode

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/optim"
)

// TestSigns asserts Φ' ≤ 0 and φ' > 0 on a grid of t for random
// sign-constrained weights of several scales (and random free biases).
func TestSigns(t *testing.T) {
	grid := make([]float64, 200)
	for i := range grid {
		grid[i] = 0.001 + 0.05*float64(i)
	}
	for seed := int64(0); seed < 20; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var ps nn.Params
		b := NewBoundary(&ps, "phi", 3, 8, rng)
		p := NewPrior(&ps, "prior", 8, rng)
		scale := math.Pow(10, rng.Float64()*2-1)
		for _, q := range ps.List {
			for i := range q.Data {
				if q.Sign == optim.Free {
					q.Data[i] = rng.NormFloat64() * 3
				} else {
					q.Data[i] *= scale
				}
			}
		}
		n := nn.NewNet()
		tt := n.Const("t", grid, len(grid), 1)
		zs := randomCol(rng, 3*len(grid), -3, 3)
		d := b.Deriv(n, tt, b.B(n, n.Const("z", zs, len(grid), 3)))
		_, lam := p.Phi(n, tt)
		m, err := n.Compile(n.Sum(d), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		for i, v := range autodiff.Value(d) {
			if v > 0 {
				t.Fatalf("seed %d: Φ'(%v) = %v > 0", seed, grid[i], v)
			}
		}
		for i, v := range autodiff.Value(lam) {
			if !(v > 0) {
				t.Fatalf("seed %d: φ'(%v) = %v, not > 0", seed, grid[i], v)
			}
		}
	}
}

// TestPriorIntegratesToOne integrates p(t) = φ'(t)e^{−φ(t)} numerically
// (Simpson on [0, T], T where φ(T) > 40) and checks ∫p = 1 and φ(0) = 0.
func TestPriorIntegratesToOne(t *testing.T) {
	for seed := int64(0); seed < 5; seed++ {
		rng := rand.New(rand.NewSource(seed))
		var ps nn.Params
		p := NewPrior(&ps, "prior", 6, rng)
		for _, q := range []*optim.Param{p.B1, p.B2, p.Rho, p.D} {
			for i := range q.Data {
				q.Data[i] = rng.NormFloat64()
			}
		}
		const steps = 20000
		T := 40 / math.Log1p(math.Exp(p.Rho.Data[0])) // softplus(ρ)·T ≥ 40
		grid := make([]float64, steps+1)
		for i := range grid {
			grid[i] = T * float64(i) / steps
		}
		n := nn.NewNet()
		phi, lam := p.Phi(n, n.Const("t", grid, len(grid), 1))
		m, err := n.Compile(n.Sum(phi), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		f, l := autodiff.Value(phi), autodiff.Value(lam)
		if math.Abs(f[0]) > 1e-12 {
			t.Errorf("seed %d: φ(0) = %v", seed, f[0])
		}
		sum := 0.0
		for i := range grid {
			w := 2.0
			if i == 0 || i == steps {
				w = 1
			} else if i%2 == 1 {
				w = 4
			}
			sum += w * l[i] * math.Exp(-f[i])
		}
		sum *= T / steps / 3
		if math.Abs(sum-1) > 1e-4 {
			t.Errorf("seed %d: ∫p = %v, want 1", seed, sum)
		}
	}
}

// TestKLConvergence: for normalised densities the KL term approaches the
// numerically integrated KL as ε goes 0.1 → 0.01 → 0.001: the error falls
// at every step and ends within 1% of the KL.
func TestKLConvergence(t *testing.T) {
	gamma := func(t float64) float64 { return 4 * t * math.Exp(-2*t) } // Gamma(2, rate 2)
	exp := func(t float64) float64 { return 1.5 * math.Exp(-1.5*t) }   // Exp(1.5)
	pairs := []struct {
		name string
		q, p func(float64) float64
	}{
		// Densities whose tails stay above the 1e-6 log guard on the
		// nodes (t ≤ −log ε ≈ 6.9 at ε = 0.001); lighter tails converge to
		// the guarded, truncated integral instead.
		{"gamma(2,2)‖exp(1.5)", gamma, exp},
		{"exp(1.5)‖exp(1)", exp, func(t float64) float64 { return math.Exp(-t) }},
		{"gamma(3,1)‖gamma(2,2)", func(t float64) float64 { return t * t * math.Exp(-t) / 2 }, gamma},
	}
	for _, pr := range pairs {
		// Reference: ∫ q log(q/p) dt by Simpson on [0, 60] with 10⁶ steps.
		const steps, T = 1000000, 60.0
		ref := 0.0
		for i := 0; i <= steps; i++ {
			x := T * float64(i) / steps
			q, p := pr.q(x), pr.p(x)
			v := 0.0
			if q > 0 {
				v = q * math.Log(q/p)
			}
			w := 2.0
			if i == 0 || i == steps {
				w = 1
			} else if i%2 == 1 {
				w = 4
			}
			ref += w * v
		}
		ref *= T / steps / 3
		var errs []float64
		for _, eps := range []float64{0.1, 0.01, 0.001} {
			kl, err := NewKL(KLOptions{Epsilon: eps})
			if err != nil {
				t.Fatal(err)
			}
			errs = append(errs, math.Abs(kl.TermFunc(pr.q, pr.p)-ref))
		}
		t.Logf("%s: KL %.5f, |term − KL| at ε=0.1, 0.01, 0.001: %.2g %.2g %.2g", pr.name, ref, errs[0], errs[1], errs[2])
		if !(errs[2] < errs[1] && errs[1] < errs[0]) || errs[2] > 0.01*math.Max(ref, 0.1) {
			t.Errorf("%s: no convergence: %v", pr.name, errs)
		}
	}
}

// TestKLGraphMatchesFunc: the graph quadrature equals the plain one.
func TestKLGraphMatchesFunc(t *testing.T) {
	q := func(t float64) float64 { return 4 * t * math.Exp(-2*t) }
	p := func(t float64) float64 { return 1.5 * math.Exp(-1.5*t) }
	kl, _ := NewKL(KLOptions{Epsilon: 0.05})
	nodes := kl.Nodes()
	qv, pv := make([]float64, len(nodes)), make([]float64, len(nodes))
	for i, x := range nodes {
		qv[i], pv[i] = q(x), p(x)
	}
	n := nn.NewNet()
	term := kl.Term(n.Graph, n.Const("q", qv, 1, len(nodes)), n.Const("p", pv, 1, len(nodes)))
	m, err := n.Compile(n.Sum(term), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(); err != nil {
		t.Fatal(err)
	}
	if got, want := autodiff.Value(term)[0], kl.TermFunc(q, p); math.Abs(got-want) > 1e-12 {
		t.Errorf("graph %v, func %v", got, want)
	}
}

// TestSolverGradients checks Euler (graph operations and the fused node)
// and RK4 against finite differences with respect to f's parameters, the
// initial state and the interval lengths, and checks the solution of
// dh/dτ = −h.
func TestSolverGradients(t *testing.T) {
	for _, method := range []string{"euler-graph", "euler-fused", ode.RK4} {
		rng := rand.New(rand.NewSource(4))
		var ps nn.Params
		l0 := nn.NewLinear(&ps, "f.0", 3, 4, rng)
		l1 := nn.NewLinear(&ps, "f.1", 4, 4, rng)
		l2 := nn.NewLinear(&ps, "f.2", 4, 3, rng)
		h0 := ps.New("h0", 5, 3, optim.Free, rng)
		span := optim.NewParam("span", 5, 1, optim.Free)
		copy(span.Data, randomCol(rng, 5, 0.1, 2))
		for _, l := range []*nn.Linear{l0, l1, l2} {
			copy(l.B.Data, randomCol(rng, len(l.B.Data), -0.5, 0.5))
		}
		n := nn.NewNet()
		mlp := ode.MLP{W0: n.P(l0.W), B0: n.P(l0.B), W1: n.P(l1.W), B1: n.P(l1.B), W2: n.P(l2.W), B2: n.P(l2.B)}
		o := ode.Options{Method: method, Steps: 10}
		switch method {
		case "euler-graph":
			o = ode.Options{Method: ode.Euler, Steps: 10, Unfused: true}
		case "euler-fused":
			o = ode.Options{Method: ode.Euler, Steps: 10}
		}
		out := ode.Solver{Opts: o}.SolveMLP(n.Graph, mlp, n.P(h0), n.P(span))
		cost := n.Sum(n.Mul(out, n.Const("w", randomCol(rng, 15, -1, 1), 5, 3)))
		m, params := compile(t, n, cost)
		checkGrads(t, method, m, cost, params, 16)
	}
	// dh/dτ = −h: Euler gives exactly (1 − s/K)^K·h0; RK4 is within 1e-6
	// of e^{−s}·h0 (error O(1/K⁴)).
	for _, tc := range []struct {
		method string
		exact  func(s float64) float64
		tol    float64
	}{{ode.Euler, func(s float64) float64 { return math.Pow(1-s/10, 10) }, 1e-12},
		{ode.RK4, func(s float64) float64 { return math.Exp(-s) }, 1e-6}} {
		n := nn.NewNet()
		h0 := n.Const("h0", []float64{1, 2}, 2, 1)
		sp := n.Const("span", []float64{0.5, 1}, 2, 1)
		out := ode.Solver{Opts: ode.Options{Method: tc.method, Steps: 10}}.Solve(n.Graph, n.Neg, h0, sp)
		m, err := n.Compile(n.Sum(out), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		v := autodiff.Value(out)
		for i, want := range []float64{tc.exact(0.5), 2 * tc.exact(1)} {
			if math.Abs(v[i]-want) > tc.tol*want {
				t.Errorf("%s: h(%d) = %v, want %v", tc.method, i, v[i], want)
			}
		}
	}
}

// TestLossGradient checks the gradient of the whole sequential loss (MSE +
// w_kl·KL, with a large w_kl so the KL part counts) for both encoders, both
// solvers, the unit-gap model and both variants.
func TestLossGradient(t *testing.T) {
	cases := []struct {
		name string
		mod  func(*SequentialOptions)
	}{
		{"paper-euler", func(o *SequentialOptions) { o.Encoder = EncoderPaper }},
		{"context-rk4", func(o *SequentialOptions) { o.ODE.Method = ode.RK4 }},
		{"node", func(o *SequentialOptions) { o.UnitGaps = true }},
		{"context-unfused", func(o *SequentialOptions) { o.ODE.Unfused = true }},
		{"context-phase-state", func(o *SequentialOptions) { o.Variant = VariantPhaseState }},
		{"paper-phase-state-node", func(o *SequentialOptions) { o.Encoder, o.Variant, o.UnitGaps = EncoderPaper, VariantPhaseState, true }},
	}
	for _, tc := range cases {
		o := DefaultSequentialOptions()
		o.EncHidden, o.PhiHidden, o.ODEHidden, o.WKL = 4, 4, 5, 0.3
		o.ODE.Steps, o.ODE.DType = 4, ode.Float64 // finite differences need float64
		tc.mod(&o)
		rng := rand.New(rand.NewSource(5))
		m, err := NewSequential(o, rng)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range m.Params.List { // non-zero biases exercise every path
			if p.Sign == optim.Free && p.Rows == 1 {
				copy(p.Data, randomCol(rng, len(p.Data), -0.3, 0.3))
			}
		}
		if m.Boundary != nil {
			// sg(t) makes the gradient differ from the derivative of the
			// forward pass by design; check everything else exactly.
			m.Boundary.FullGradient = true
		}
		bt, err := m.Build(3, 5, true)
		if err != nil {
			t.Fatal(err)
		}
		seqs := make([][][]float64, 3)
		for s := range seqs {
			for i := 0; i < 5; i++ {
				seqs[s] = append(seqs[s], []float64{math.Sin(float64(i+s)) + 0.1})
			}
		}
		if err := bt.Set(seqs); err != nil {
			t.Fatal(err)
		}
		checkGrads(t, tc.name, bt.Machine, bt.Loss, bt.Params, 12)
	}
}
