package am

import (
	"math"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/acoustic/strode"
)

// Model is the parameters of an acoustic model.
type Model struct {
	Opts   Options
	Params nn.Params
	Enc    *sru.Encoder
	Out    *nn.Linear // e → logits (H×P, bias 1×P)

	// The STRODE head (nil for "sru").
	OutH     *optim.Param  // h̃ → logits, S×P
	Proj     *optim.Param  // h(0) = e·Proj, H×S
	ODE      [3]*nn.Linear // f_o = Linear→tanh→Linear→tanh→Linear
	Boundary *strode.Boundary
	PhiZ     [3]*nn.Linear // b(z) with free signs (Options.PhiZ = "free"; nil for "nonpos")
	Prior    *strode.Prior
	PriorIn  *nn.Linear // x_{i+1} → tanh hidden
	PriorMu  *nn.Linear // hidden → μ
	PriorVar *nn.Linear // hidden → s, σ² = softplus(s) + 1e-3
	kl       *strode.KL

	// odernn (odernn.go): the ODE-RNN layer between Enc and Dec — its
	// input affine e → [candidate | forget gate], its forget gate's weight
	// on the evolved state, f_o in ODE — and the SRU decoder under Out.
	RNNIn   *nn.Linear
	RNNGate *optim.Param
	Dec     *sru.Encoder
	// dnn (dnn.go): the hidden affine layers under Out (Enc is nil).
	Hidden []*nn.Linear
}

// New builds a model with parameters initialised from seed.
func New(o Options, seed int64) (*Model, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewSource(seed))
	m := &Model{Opts: o}
	switch o.Kind {
	case KindDNN:
		m.newDNN(rng)
		return m, nil
	case KindODERNN:
		if err := m.newODERNN(rng); err != nil {
			return nil, err
		}
		return m, nil
	}
	var err error
	if m.Enc, err = sru.NewEncoder(&m.Params, "sru", o.InputDim, o.SRU, rng); err != nil {
		return nil, err
	}
	h, p := o.SRU.OutDim(), o.NumPdfs // encoder output: Hidden, or 2·Hidden bidirectional
	m.Out = nn.NewLinear(&m.Params, "out", h, p, rng)
	if o.Kind == KindSTRODE {
		s := o.ODEState
		m.OutH = m.Params.New("out.ode.weight", s, p, optim.Free, rng)
		m.Proj = m.Params.New("ode.proj", h, s, optim.Free, rng)
		m.ODE[0] = nn.NewLinear(&m.Params, "ode.0", s, o.ODEHidden, rng)
		m.ODE[1] = nn.NewLinear(&m.Params, "ode.1", o.ODEHidden, o.ODEHidden, rng)
		m.ODE[2] = nn.NewLinear(&m.Params, "ode.2", o.ODEHidden, s, rng)
		if o.PhiZ == PhiZFree {
			// a(t) keeps DESIGN.md's non-positive weights (Φ' ≤ 0 needs
			// only those); b(z) is an ordinary tanh MLP, see boundaryZ.
			np := optim.NonPos
			m.Boundary = &strode.Boundary{
				W1: m.Params.New("phi.W1", 1, o.PhiHidden, np, rng),
				W2: m.Params.New("phi.W2", o.PhiHidden, o.PhiHidden, np, rng),
				W3: m.Params.New("phi.W3", o.PhiHidden, 1, np, rng),
			}
			m.PhiZ[0] = nn.NewLinear(&m.Params, "phi.z.0", h, o.PhiHidden, rng)
			m.PhiZ[1] = nn.NewLinear(&m.Params, "phi.z.1", o.PhiHidden, o.PhiHidden, rng)
			m.PhiZ[2] = nn.NewLinear(&m.Params, "phi.z.2", o.PhiHidden, 1, rng)
			m.PhiZ[2].B.Data[0] = phiZBias
		} else {
			m.Boundary = strode.NewBoundary(&m.Params, "phi", h, o.PhiHidden, rng)
		}
		// a(t) and b(z) run over every frame: float32 products as the
		// head's other layers (the KL's densities on a few fixed times stay
		// float64).
		m.Boundary.Product = product32
		m.Prior = strode.NewPrior(&m.Params, "prior", o.PhiHidden, rng)
		m.PriorIn = nn.NewLinear(&m.Params, "gauss.0", o.InputDim, o.PriorHidden, rng)
		m.PriorMu = nn.NewLinear(&m.Params, "gauss.mu", o.PriorHidden, s, rng)
		m.PriorVar = nn.NewLinear(&m.Params, "gauss.var", o.PriorHidden, s, rng)
		m.kl, _ = strode.NewKL(o.KL)
	}
	return m, nil
}

// phiZBias is the initial output bias of the free b(z): softplus(0.5413) = 1,
// so t̃ starts near one frame (a(ε0) ≈ 0), the spacing of the next frame the
// head postdicts.
const phiZBias = 0.5413248546129181

// boundaryZ is b(z) of Φ(t, z) = sg(t) + softplus(a(t) + b(z)) for the
// encoder outputs e (N×H), a column N×1.
//
// With "nonpos" it is DESIGN.md's V3·tanh(V2·(V1·z)), every V ≤ 0. Then
// V1·V2 is an entrywise non-negative matrix, so every hidden unit sees a
// positive combination of the same e: at initialisation all of them are
// close to one function of Σ_k e_k, they saturate together, and Adam's
// noisy steps, clipped at zero by the sign projection, only ever make the
// weights more negative. Measured on FSDD: t̃ ends constant over frames at
// ≈ 2e-4 (b ≈ −8.6), also without the KL and Gaussian terms. Monotonicity
// of Φ in t needs only a(t)'s signs (Φ' = σ(a + b)·a'(t)), so "free" makes
// b(z) = tanh(tanh(e·A0 + c0)·A1 + c1)·A2 + c2 with free signs and biases,
// the last bias starting t̃ at one frame.
func (m *Model) boundaryZ(net *nn.Net, e *autodiff.Node) (*autodiff.Node, error) {
	if m.PhiZ[0] == nil {
		return m.Boundary.B(net, e), net.Err()
	}
	h := linearAct(net, m.PhiZ[0], e, sru.ActTanh)
	h = linearAct(net, m.PhiZ[1], h, sru.ActTanh)
	return linear(net, m.PhiZ[2], h), net.Err()
}

// linear is l applied to the rows x as one fused float32 node (sru.Affine):
// the STRODE head's layers, which run over every frame of the minibatch
// and, as gorgonia's MatMul and broadcast add, cost a float64 product, a
// repeated bias and two copies each. The gradient checks turn
// sru.Float32Products off and get the float64 graph.
func linear(net *nn.Net, l *nn.Linear, x *autodiff.Node) *autodiff.Node {
	y, err := sru.Affine(net, x, l.W, l.B)
	if err != nil {
		return net.Fail(l.W.Name, err)
	}
	return y
}

// linearAct is act(l(x)) as one fused float32 node (sru.AffineAct).
func linearAct(net *nn.Net, l *nn.Linear, x *autodiff.Node, act sru.AffineActivation) *autodiff.Node {
	y, err := sru.AffineAct(net, x, l.W, l.B, act)
	if err != nil {
		return net.Fail(l.W.Name, err)
	}
	return y
}

// solveODE is h̃: the head's ODE dh/dτ = f(h) integrated from h0 over the
// intervals tt (one per row). With the products in float32
// (sru.Float32Products) and fixed Euler steps, the whole solve is one fused
// float32 node (ode.Solver.SolveMLP: the K steps, their trajectory and the
// reverse pass by hand), where building it from graph operations costs K ×
// (three products, two tanh, an add and a column scale) of float64 nodes and
// their copies. RK4, --ode-unfused and the gradient checks' float64
// products build it from graph operations.
func (m *Model) solveODE(net *nn.Net, h0, tt *autodiff.Node) *autodiff.Node {
	o := m.Opts.ODE
	if sru.Float32Products && o.Method == ode.Euler && !o.Unfused {
		o.DType = ode.Float32
		f := ode.MLP{W0: net.P(m.ODE[0].W), B0: net.P(m.ODE[0].B), W1: net.P(m.ODE[1].W), B1: net.P(m.ODE[1].B),
			W2: net.P(m.ODE[2].W), B2: net.P(m.ODE[2].B)}
		return ode.Solver{Opts: o}.SolveMLP(net.Graph, f, h0, tt)
	}
	f := func(h *autodiff.Node) *autodiff.Node {
		h = linearAct(net, m.ODE[0], h, sru.ActTanh)
		h = linearAct(net, m.ODE[1], h, sru.ActTanh)
		return linear(net, m.ODE[2], h)
	}
	return ode.Solver{Opts: o}.Solve(net.Graph, f, h0, tt)
}

// head is the STRODE head on the encoder outputs e (rows×H; e32 their
// float32 values where the SRU stack keeps them, else nil), as Build and
// the streaming tail both build it: the boundary t̃ = Φ(ε0, z) (or the fixed
// t̃), h̃ = the ODE solved from h0 = e·Proj over t̃, and what the output
// layer e·W + h̃·W_h + b reads (outX, outW: the caller makes the logits, or
// in training the fused output and cross-entropy). bz is b(z), nil for a
// fixed t̃ (no KL term then).
type head struct {
	tt, htilde, bz *autodiff.Node
	outX           []*autodiff.Node
	outW           []*optim.Param
}

func (m *Model) head(net *nn.Net, e *autodiff.Node, e32 sru.Output32, rows int) (head, error) {
	var h head
	fixed, isFixed := m.Opts.FixedBoundary() // fixedttilde.go
	var err error
	if isFixed {
		tt := make([]float64, rows)
		for i := range tt {
			tt[i] = fixed
		}
		h.tt = net.Const("t_tilde", tt, rows, 1)
	}
	// The head's products with the encoder's output e (H wide) are the
	// only large ones in it: float32 through internal/gemm, as the SRU's.
	var h0 *autodiff.Node
	if isFixed {
		h0, err = sru.MatMul(net, e, net.P(m.Proj))
	} else {
		h0, h.bz, err = m.headEntry(net, e, e32)
	}
	if err != nil {
		return h, err
	}
	if !isFixed {
		h.tt, _ = m.Boundary.NextFrom(net, m.Opts.Eps0, h.bz) // every row from ε0
	}
	h.htilde = h0
	if !isFixed || fixed != 0 {
		h.htilde = m.solveODE(net, h0, h.tt)
	}
	h.outX, h.outW = []*autodiff.Node{e, h.htilde}, []*optim.Param{m.Out.W, m.OutH}
	return h, nil
}

// product32 is x·w as one fused float32 node (sru.MatMul; float64 when the
// gradient checks turn sru.Float32Products off).
func product32(net *nn.Net, x, w *autodiff.Node) *autodiff.Node {
	y, err := sru.MatMul(net, x, w)
	if err != nil {
		return net.Fail("product", err)
	}
	return y
}

// HasTTilde tells whether the model's graph has a boundary t̃ per frame
// (Batch.TTilde, Stats' t̃ fields): the STRODE head, learned or fixed.
func (m *Model) HasTTilde() bool { return m.Opts.Kind == KindSTRODE }

// NumParams is the number of trainable values.
func (m *Model) NumParams() int {
	n := 0
	for _, p := range m.Params.List {
		n += len(p.Data)
	}
	return n
}

// halfLog2Pi is ½·log 2π, the constant of the Gaussian log-density.
var halfLog2Pi = 0.5 * math.Log(2*math.Pi)
