package am

import (
	"fmt"
	"io"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/acoustic/strode"
)

// strodeArch is the "strode" kind: the SRU encoder, the affine output on it,
// and the regenerative STRODE postdictive head (doc.go's equations):
// t̃_i = Φ(ε0, e_i), h̃_i = h(t̃_i) from h(0) = P·e_i, logits = W·e + W_h·h̃ + b,
// with the KL term and the Gaussian prior on h̃ in the loss. Its parameters
// are the encoder "sru.L.*", the output "out.*" and the head's
// "out.ode.weight", "ode.*", "phi.*", "prior.*" and "gauss.*", in that
// order.
type strodeArch struct {
	Opts     Options
	enc      *sru.Encoder
	Out      *nn.Linear    // the model's output layer (Model.Out)
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
}

func (*strodeArch) preset(string, *Options) {} // Preset's sizes

func (*strodeArch) validate(o Options) error {
	if o.ODEState < 1 || o.ODEHidden < 1 || o.PhiHidden < 1 || o.PriorHidden < 1 {
		return fmt.Errorf("am: head sizes must be ≥ 1: ode-state %d ode-hidden %d phi-hidden %d prior-hidden %d",
			o.ODEState, o.ODEHidden, o.PhiHidden, o.PriorHidden)
	}
	if o.PhiZ != "" && o.PhiZ != PhiZNonPos && o.PhiZ != PhiZFree {
		return fmt.Errorf("am: unknown --phi-z=%q (want nonpos or free)", o.PhiZ)
	}
	if _, err := strode.NewKL(o.KL); err != nil {
		return err
	}
	return o.ODE.Validate()
}

func (*strodeArch) shapes(o Options, s *shapeList) {
	p, h, st, ph := o.NumPdfs, o.SRU.OutDim(), o.ODEState, o.PhiHidden
	s.sruStack("sru", o.InputDim, o.SRU)
	s.linear("out", h, p)
	s.add("out.ode.weight", st, p)
	s.add("ode.proj", h, st)
	s.odeMLP(st, o.ODEHidden)
	s.add("phi.W1", 1, ph)
	s.add("phi.W2", ph, ph)
	s.add("phi.W3", ph, 1)
	if o.PhiZ == PhiZFree {
		s.linear("phi.z.0", h, ph)
		s.linear("phi.z.1", ph, ph)
		s.linear("phi.z.2", ph, 1)
	} else {
		s.add("phi.V1", h, ph)
		s.add("phi.V2", ph, ph)
		s.add("phi.V3", ph, 1)
	}
	s.add("prior.U1", 1, ph)
	s.add("prior.beta1", 1, ph)
	s.add("prior.U2", ph, ph)
	s.add("prior.beta2", 1, ph)
	s.add("prior.U3", ph, 1)
	s.add("prior.rho", 1, 1)
	s.add("prior.d", 1, 1)
	s.linear("gauss.0", o.InputDim, o.PriorHidden)
	s.linear("gauss.mu", o.PriorHidden, st)
	s.linear("gauss.var", o.PriorHidden, st)
}

func (*strodeArch) limits(o Options) (sizes, layers []namedSize) {
	return []namedSize{{"sru hidden", o.SRU.Hidden}, {"ode_state", o.ODEState}, {"ode_hidden", o.ODEHidden},
			{"phi_hidden", o.PhiHidden}, {"prior_hidden", o.PriorHidden}},
		[]namedSize{{"SRU layers", o.SRU.Layers}}
}

func (*strodeArch) describe(w io.Writer, o Options) {
	describeEncoder(w, o)
	fmt.Fprintf(w, "head\tODE state %d, f_o hidden %d, %d %s steps; phi/prior hidden %d; Gaussian prior hidden %d\n",
		o.ODEState, o.ODEHidden, o.ODE.Steps, o.ODE.Method, o.PhiHidden, o.PriorHidden)
	phiZ := o.PhiZ
	if phiZ == "" {
		phiZ = PhiZNonPos
	}
	if c, ok := o.FixedBoundary(); ok {
		fmt.Fprintf(w, "loss\tCE - %g log N(h~; mu, sigma^2); no KL term (t~ fixed)\n", o.WP)
		fmt.Fprintf(w, "boundary\tt~ fixed at %g frames for every frame (--fixed-t-tilde; phi/prior tensors unused)\n", c)
	} else {
		fmt.Fprintf(w, "loss\tCE + %g KL (epsilon %g) - %g log N(h~; mu, sigma^2); eps0 %g\n", o.WKL, o.KL.Epsilon, o.WP, o.Eps0)
		fmt.Fprintf(w, "boundary\tt~ = softplus(a(eps0) + b(e)), b(z) %s\n", phiZ)
	}
}

// paperMillions: §5.1 of the STRODE paper, 9 × 900 SRU with ODE state 128.
func (*strodeArch) paperMillions(o Options) (int, bool) {
	p, _ := PresetFor("paper", KindSTRODE)
	return 76, o.SRU.Hidden == p.SRU.Hidden && o.SRU.Layers == p.SRU.Layers && o.ODEState == p.ODEState
}

func (*strodeArch) readsAhead(o Options) bool { return o.SRU.Bidirectional }

func (hd *strodeArch) init(m *Model, rng *rand.Rand) error {
	o := m.Opts
	hd.Opts = o
	var err error
	if hd.enc, err = newSRUEncoder(m, rng); err != nil {
		return err
	}
	h, p, s := o.SRU.OutDim(), o.NumPdfs, o.ODEState // encoder output: Hidden, or 2·Hidden bidirectional
	m.Out = nn.NewLinear(&m.Params, "out", h, p, rng)
	hd.Out = m.Out
	hd.OutH = m.Params.New("out.ode.weight", s, p, optim.Free, rng)
	hd.Proj = m.Params.New("ode.proj", h, s, optim.Free, rng)
	hd.ODE[0] = nn.NewLinear(&m.Params, "ode.0", s, o.ODEHidden, rng)
	hd.ODE[1] = nn.NewLinear(&m.Params, "ode.1", o.ODEHidden, o.ODEHidden, rng)
	hd.ODE[2] = nn.NewLinear(&m.Params, "ode.2", o.ODEHidden, s, rng)
	if o.PhiZ == PhiZFree {
		// a(t) keeps DESIGN.md's non-positive weights (Φ' ≤ 0 needs
		// only those); b(z) is an ordinary tanh MLP, see boundaryZ.
		np := optim.NonPos
		hd.Boundary = &strode.Boundary{
			W1: m.Params.New("phi.W1", 1, o.PhiHidden, np, rng),
			W2: m.Params.New("phi.W2", o.PhiHidden, o.PhiHidden, np, rng),
			W3: m.Params.New("phi.W3", o.PhiHidden, 1, np, rng),
		}
		hd.PhiZ[0] = nn.NewLinear(&m.Params, "phi.z.0", h, o.PhiHidden, rng)
		hd.PhiZ[1] = nn.NewLinear(&m.Params, "phi.z.1", o.PhiHidden, o.PhiHidden, rng)
		hd.PhiZ[2] = nn.NewLinear(&m.Params, "phi.z.2", o.PhiHidden, 1, rng)
		hd.PhiZ[2].B.Data[0] = phiZBias
	} else {
		hd.Boundary = strode.NewBoundary(&m.Params, "phi", h, o.PhiHidden, rng)
	}
	// a(t) and b(z) run over every frame: float32 products as the
	// head's other layers (the KL's densities on a few fixed times stay
	// float64).
	hd.Boundary.Product = product32
	hd.Prior = strode.NewPrior(&m.Params, "prior", o.PhiHidden, rng)
	hd.PriorIn = nn.NewLinear(&m.Params, "gauss.0", o.InputDim, o.PriorHidden, rng)
	hd.PriorMu = nn.NewLinear(&m.Params, "gauss.mu", o.PriorHidden, s, rng)
	hd.PriorVar = nn.NewLinear(&m.Params, "gauss.var", o.PriorHidden, s, rng)
	hd.kl, _ = strode.NewKL(o.KL)
	return nil
}

// phiZBias is the initial output bias of the free b(z): softplus(0.5413) = 1,
// so t̃ starts near one frame (a(ε0) ≈ 0), the spacing of the next frame the
// head postdicts.
const phiZBias = 0.5413248546129181

func (hd *strodeArch) layers(net *nn.Net, x, mask *autodiff.Node, t, b int, mode Mode) (layers, error) {
	e, e32, drop, err := hd.enc.ApplyShared(net, x, mask, t, b, mode == Train)
	if err != nil {
		return layers{}, err
	}
	h, err := hd.head(net, e, e32, t*b)
	if err != nil {
		return layers{}, err
	}
	ly := layers{enc: e, more: []*autodiff.Node{h.htilde}, moreW: []*optim.Param{hd.OutH}, drops: []*sru.Dropout{drop},
		ttilde: h.tt, htilde: h.htilde}
	if mode == Infer {
		return ly, nil
	}
	var klRows *autodiff.Node
	if h.bz != nil {
		klRows = hd.klRows(net, h.bz)
	}
	ly.loss = func(net *nn.Net, bt *Batch, ce, maskw *autodiff.Node) (*autodiff.Node, error) {
		o := hd.Opts
		if klRows != nil {
			bt.KL = net.Sum(net.Mul(klRows, maskw))
		}
		var xnext *autodiff.Node
		xnext, bt.xnext = net.Input("xnext", t*b, o.InputDim)
		// (1/S)·Σ log N(h̃; μ, softplus(a) + 1e-3) per frame, weighted by maskw.
		bt.LogP = hd.priorLogLik(net, h.htilde, xnext, maskw)
		if bt.KL == nil { // fixed t̃: no KL term
			return net.Add(ce, net.Scale(bt.LogP, -o.WP)), nil
		}
		return net.Add(ce, net.Add(net.Scale(bt.KL, o.WKL), net.Scale(bt.LogP, -o.WP))), nil
	}
	return ly, nil
}

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
func (hd *strodeArch) boundaryZ(net *nn.Net, e *autodiff.Node) (*autodiff.Node, error) {
	if hd.PhiZ[0] == nil {
		return hd.Boundary.B(net, e), net.Err()
	}
	h := linearAct(net, hd.PhiZ[0], e, sru.ActTanh)
	h = linearAct(net, hd.PhiZ[1], h, sru.ActTanh)
	return linear(net, hd.PhiZ[2], h), net.Err()
}

// solveODE is h̃: the head's ODE dh/dτ = f(h) integrated from h0 over the
// intervals tt (one per row). With the products in float32
// (sru.Float32Products) and fixed Euler steps, the whole solve is one fused
// float32 node (ode.Solver.SolveMLP: the K steps, their trajectory and the
// reverse pass by hand), where building it from graph operations costs K ×
// (three products, two tanh, an add and a column scale) of float64 nodes and
// their copies. RK4, --ode-unfused and the gradient checks' float64
// products build it from graph operations.
func (hd *strodeArch) solveODE(net *nn.Net, h0, tt *autodiff.Node) *autodiff.Node {
	o := hd.Opts.ODE
	if sru.Float32Products && o.Method == ode.Euler && !o.Unfused {
		o.DType = ode.Float32
		f := ode.MLP{W0: net.P(hd.ODE[0].W), B0: net.P(hd.ODE[0].B), W1: net.P(hd.ODE[1].W), B1: net.P(hd.ODE[1].B),
			W2: net.P(hd.ODE[2].W), B2: net.P(hd.ODE[2].B)}
		return ode.Solver{Opts: o}.SolveMLP(net.Graph, f, h0, tt)
	}
	f := func(h *autodiff.Node) *autodiff.Node {
		h = linearAct(net, hd.ODE[0], h, sru.ActTanh)
		h = linearAct(net, hd.ODE[1], h, sru.ActTanh)
		return linear(net, hd.ODE[2], h)
	}
	return ode.Solver{Opts: o}.Solve(net.Graph, f, h0, tt)
}

// headNodes is the STRODE head on the encoder outputs: the boundary t̃
// (N×1), h̃ (N×S), and b(z) (N×1; nil for a fixed t̃, which has no KL term).
type headNodes struct {
	tt, htilde, bz *autodiff.Node
}

// head builds the STRODE head on the encoder outputs e (rows×H; e32 their
// float32 values where the SRU stack keeps them, else nil), as layers and
// the streaming tail both build it: the boundary t̃ = Φ(ε0, z) (or the
// fixed t̃), and h̃ = the ODE solved from h0 = e·Proj over t̃.
func (hd *strodeArch) head(net *nn.Net, e *autodiff.Node, e32 sru.Output32, rows int) (headNodes, error) {
	var h headNodes
	fixed, isFixed := hd.Opts.FixedBoundary() // fixedttilde.go
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
		h0, err = sru.MatMul(net, e, net.P(hd.Proj))
	} else {
		h0, h.bz, err = hd.headEntry(net, e, e32)
	}
	if err != nil {
		return h, err
	}
	if !isFixed {
		h.tt, _ = hd.Boundary.NextFrom(net, hd.Opts.Eps0, h.bz) // every row from ε0
	}
	h.htilde = h0
	if !isFixed || fixed != 0 {
		h.htilde = hd.solveODE(net, h0, h.tt)
	}
	return h, nil
}

func (hd *strodeArch) newStream(m *Model) (streamer, error) {
	enc, err := hd.enc.NewStream()
	if err != nil {
		return nil, err
	}
	s := &strodeStream{enc: enc}
	s.tails = newTails(m.Opts.NumPdfs, func(rows int) (*tail, error) {
		// As layers (Infer) builds it, on an input node instead of the
		// encoder's output.
		net := nn.NewNet()
		e, in := net.Input("e", rows, m.Opts.SRU.OutDim())
		h, err := hd.head(net, e, nil, rows)
		if err != nil {
			return nil, err
		}
		logits, err := sru.AffineSum(net, []*autodiff.Node{e, h.htilde}, []*optim.Param{m.Out.W, hd.OutH}, m.Out.B)
		if err != nil {
			return nil, err
		}
		return compileTail(net, rows, in, logits)
	})
	return s, nil
}

// strodeStream runs the SRU stack on frames as they come (sru.Stream) and
// the head and output layer, which are per frame, as graphs on the new
// frames (tails).
type strodeStream struct {
	enc   *sru.Stream
	tails *tails
}

func (s *strodeStream) reset() { s.enc.Reset() }
func (s *strodeStream) close() { s.tails.close() }

func (s *strodeStream) forward(x []float32, rows int) ([]float64, error) {
	e, err := s.enc.Forward(x, rows)
	if err != nil {
		return nil, err
	}
	return s.tails.run(e, rows)
}

// strode returns m's STRODE head, or an error naming what needs one.
func (m *Model) strode(what string) (*strodeArch, error) {
	hd, ok := m.arch.(*strodeArch)
	if !ok {
		return nil, fmt.Errorf("am: %s needs a strode model, this one is %q", what, m.Opts.Kind)
	}
	return hd, nil
}
