package strodehead

import (
	"fmt"
	"io"
	"math"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/acoustic/strode"
)

// Parameterisations of the z branch b(z) of the boundary network Φ.
const (
	PhiZNonPos = "nonpos" // DESIGN.md: V3·tanh(V2·(V1·z)), every V ≤ 0
	PhiZFree   = "free"   // a tanh MLP with free signs and biases (see boundaryZ)
)

// Config is the head's sizes and loss weights: the acoustic model's options
// that the head reads.
type Config struct {
	In       int // encoder output width H (what the head reads per frame)
	InputDim int // what the Gaussian prior reads per frame: the next frame's input features, or a teacher's encoding
	NumPdfs  int

	State       int    // size of h
	ODEHidden   int    // hidden size of f_o
	PhiHidden   int    // hidden size of Φ and φ
	PriorHidden int    // hidden size of the MLP giving μ, σ² from x_{i+1}
	PhiZ        string // b(z) of Φ: PhiZNonPos ("" too) or PhiZFree
	Eps0        float64
	WKL, WP     float64
	ODE         ode.Options
	KL          strode.KLOptions
	// Fixed, when not nil, fixes every frame's ODE interval to [0, *Fixed]
	// frames (the constant-t̃ ablation; no KL term then).
	Fixed *float64
	// Variant is what the output layer reads (variant.go): VariantPaper
	// ("" too), VariantHTilde, VariantGated or VariantLookahead.
	Variant string
	// VariantLookahead (lookahead.go): the look-ahead's bound L in frames
	// and the weight of the latency term w_latency·mean t̃.
	MaxLookahead int
	WLatency     float64
}

// Validate checks the head's sizes and choices.
func (c Config) Validate() error {
	if c.State < 1 || c.ODEHidden < 1 || c.PhiHidden < 1 || c.PriorHidden < 1 {
		return fmt.Errorf("am: head sizes must be ≥ 1: ode-state %d ode-hidden %d phi-hidden %d prior-hidden %d",
			c.State, c.ODEHidden, c.PhiHidden, c.PriorHidden)
	}
	if c.PhiZ != "" && c.PhiZ != PhiZNonPos && c.PhiZ != PhiZFree {
		return fmt.Errorf("am: unknown --phi-z=%q (want nonpos or free)", c.PhiZ)
	}
	if c.Fixed != nil && (*c.Fixed < 0 || math.IsNaN(*c.Fixed) || math.IsInf(*c.Fixed, 0)) {
		return fmt.Errorf("am: fixed t~ %g must be a finite number of frames ≥ 0", *c.Fixed)
	}
	if err := c.validVariant(); err != nil {
		return err
	}
	if err := c.validLookahead(); err != nil {
		return err
	}
	if _, err := strode.NewKL(c.KL); err != nil {
		return err
	}
	return c.ODE.Validate()
}

// Head is the STRODE head's parameters.
type Head struct {
	Cfg      Config
	OutH     *optim.Param  // h̃ → logits, S×P (nil for VariantHTilde, whose model's W reads h̃)
	Proj     *optim.Param  // h(0) = e·Proj, H×S
	ODE      [3]*nn.Linear // f_o = Linear→tanh→Linear→tanh→Linear
	Boundary *strode.Boundary
	PhiZ     [3]*nn.Linear // b(z) with free signs (PhiZFree; nil for PhiZNonPos)
	Prior    *strode.Prior
	PriorIn  *nn.Linear // x_{i+1} → tanh hidden
	PriorMu  *nn.Linear // hidden → μ
	PriorVar *nn.Linear // hidden → s, σ² = softplus(s) + 1e-3
	Gate     *nn.Linear // VariantGated: h̃ → the gate's pre-activation, S×H (nil otherwise)
	kl       *strode.KL
}

// New adds the head's parameters to ps, initialised from rng, in the order
// Shapes lists them: "out.ode.weight" (not for VariantHTilde), "ode.proj",
// "ode.0-2.*", "phi.*", "prior.*", "gauss.*", and for VariantGated
// "out.gate.*" last. c must be valid.
func New(ps *nn.Params, c Config, rng *rand.Rand) *Head {
	h, p, s := c.In, c.NumPdfs, c.State
	hd := &Head{Cfg: c}
	if !c.HTildeOnly() {
		hd.OutH = ps.New("out.ode.weight", s, p, optim.Free, rng)
	}
	hd.Proj = ps.New("ode.proj", h, s, optim.Free, rng)
	hd.ODE[0] = nn.NewLinear(ps, "ode.0", s, c.ODEHidden, rng)
	hd.ODE[1] = nn.NewLinear(ps, "ode.1", c.ODEHidden, c.ODEHidden, rng)
	hd.ODE[2] = nn.NewLinear(ps, "ode.2", c.ODEHidden, s, rng)
	if c.PhiZ == PhiZFree {
		// a(t) keeps DESIGN.md's non-positive weights (Φ' ≤ 0 needs
		// only those); b(z) is an ordinary tanh MLP, see boundaryZ.
		np := optim.NonPos
		hd.Boundary = &strode.Boundary{
			W1: ps.New("phi.W1", 1, c.PhiHidden, np, rng),
			W2: ps.New("phi.W2", c.PhiHidden, c.PhiHidden, np, rng),
			W3: ps.New("phi.W3", c.PhiHidden, 1, np, rng),
		}
		hd.PhiZ[0] = nn.NewLinear(ps, "phi.z.0", h, c.PhiHidden, rng)
		hd.PhiZ[1] = nn.NewLinear(ps, "phi.z.1", c.PhiHidden, c.PhiHidden, rng)
		hd.PhiZ[2] = nn.NewLinear(ps, "phi.z.2", c.PhiHidden, 1, rng)
		hd.PhiZ[2].B.Data[0] = phiZBias
	} else {
		hd.Boundary = strode.NewBoundary(ps, "phi", h, c.PhiHidden, rng)
	}
	// a(t) and b(z) run over every frame: float32 products as the
	// head's other layers (the KL's densities on a few fixed times stay
	// float64).
	hd.Boundary.Product = product32
	hd.Prior = strode.NewPrior(ps, "prior", c.PhiHidden, rng)
	hd.PriorIn = nn.NewLinear(ps, "gauss.0", c.InputDim, c.PriorHidden, rng)
	hd.PriorMu = nn.NewLinear(ps, "gauss.mu", c.PriorHidden, s, rng)
	hd.PriorVar = nn.NewLinear(ps, "gauss.var", c.PriorHidden, s, rng)
	if c.variant() == VariantGated {
		// Glorot G, zero g: the gate starts near ½ on every unit.
		hd.Gate = nn.NewLinear(ps, "out.gate", s, h, rng)
	}
	hd.kl, _ = strode.NewKL(c.KL)
	return hd
}

// Shapes lists the tensors New adds (name, rows, cols), in order, without
// allocating them.
func Shapes(c Config, add func(name string, rows, cols int)) {
	p, h, s, ph := c.NumPdfs, c.In, c.State, c.PhiHidden
	linear := func(name string, in, out int) {
		add(name+".weight", in, out)
		add(name+".bias", 1, out)
	}
	if !c.HTildeOnly() {
		add("out.ode.weight", s, p)
	}
	add("ode.proj", h, s)
	linear("ode.0", s, c.ODEHidden)
	linear("ode.1", c.ODEHidden, c.ODEHidden)
	linear("ode.2", c.ODEHidden, s)
	add("phi.W1", 1, ph)
	add("phi.W2", ph, ph)
	add("phi.W3", ph, 1)
	if c.PhiZ == PhiZFree {
		linear("phi.z.0", h, ph)
		linear("phi.z.1", ph, ph)
		linear("phi.z.2", ph, 1)
	} else {
		add("phi.V1", h, ph)
		add("phi.V2", ph, ph)
		add("phi.V3", ph, 1)
	}
	add("prior.U1", 1, ph)
	add("prior.beta1", 1, ph)
	add("prior.U2", ph, ph)
	add("prior.beta2", 1, ph)
	add("prior.U3", ph, 1)
	add("prior.rho", 1, 1)
	add("prior.d", 1, 1)
	linear("gauss.0", c.InputDim, c.PriorHidden)
	linear("gauss.mu", c.PriorHidden, s)
	linear("gauss.var", c.PriorHidden, s)
	if c.variant() == VariantGated {
		linear("out.gate", s, h)
	}
}

// Describe writes model-info's lines for the head (tab-separated).
func Describe(w io.Writer, c Config) {
	fmt.Fprintf(w, "head\tODE state %d, f_o hidden %d, %d %s steps; phi/prior hidden %d; Gaussian prior hidden %d\n",
		c.State, c.ODEHidden, c.ODE.Steps, c.ODE.Method, c.PhiHidden, c.PriorHidden)
	phiZ := c.PhiZ
	if phiZ == "" {
		phiZ = PhiZNonPos
	}
	if c.Fixed != nil {
		fmt.Fprintf(w, "loss\tCE - %g log N(h~; mu, sigma^2); no KL term (t~ fixed)\n", c.WP)
		fmt.Fprintf(w, "boundary\tt~ fixed at %g frames for every frame (--fixed-t-tilde; phi/prior tensors unused)\n", *c.Fixed)
	} else {
		fmt.Fprintf(w, "loss\tCE + %g KL (epsilon %g) - %g log N(h~; mu, sigma^2); eps0 %g\n", c.WKL, c.KL.Epsilon, c.WP, c.Eps0)
		fmt.Fprintf(w, "boundary\tt~ = softplus(a(eps0) + b(e)), b(z) %s\n", phiZ)
	}
	fmt.Fprintln(w, describeOutput(c))
}

// phiZBias is the initial output bias of the free b(z): softplus(0.5413) = 1,
// so t̃ starts near one frame (a(ε0) ≈ 0), the spacing of the next frame the
// head postdicts.
const phiZBias = 0.5413248546129181

// Nodes are the head's graph on the encoder outputs: the boundary t̃ (N×1),
// h̃ (N×S), and b(z) (N×1; nil for a fixed t̃, which has no KL term).
type Nodes struct {
	TTilde, HTilde, BZ *autodiff.Node
}

// Build builds the head on the encoder outputs e (rows×H; e32 their
// float32 values where the SRU stack keeps them, else nil), as the
// acoustic model's minibatch graphs and its streaming tail both build it:
// the boundary t̃ = Φ(ε0, z) (or the fixed t̃), and h̃ = the ODE solved from
// h0 = e·Proj over t̃. The output layer reads h̃ through OutH.
func (hd *Head) Build(net *nn.Net, e *autodiff.Node, e32 sru.Output32, rows int) (Nodes, error) {
	var h Nodes
	var err error
	if hd.Cfg.Fixed != nil {
		tt := make([]float64, rows)
		for i := range tt {
			tt[i] = *hd.Cfg.Fixed
		}
		h.TTilde = net.Const("t_tilde", tt, rows, 1)
	}
	// The head's products with the encoder's output e (H wide) are the
	// only large ones in it: float32 through internal/gemm, as the SRU's.
	var h0 *autodiff.Node
	if hd.Cfg.Fixed != nil {
		h0, err = sru.MatMul(net, e, net.P(hd.Proj))
	} else {
		h0, h.BZ, err = hd.entry(net, e, e32)
	}
	if err != nil {
		return h, err
	}
	if hd.Cfg.Fixed == nil {
		h.TTilde, _ = hd.Boundary.NextFrom(net, hd.Cfg.Eps0, h.BZ) // every row from ε0
	}
	h.HTilde = h0
	if hd.Cfg.Fixed == nil || *hd.Cfg.Fixed != 0 {
		h.HTilde = hd.solveODE(net, h0, h.TTilde)
	}
	return h, nil
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
func (hd *Head) boundaryZ(net *nn.Net, e *autodiff.Node) (*autodiff.Node, error) {
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
func (hd *Head) solveODE(net *nn.Net, h0, tt *autodiff.Node) *autodiff.Node {
	o := hd.Cfg.ODE
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

// linear is l applied to the rows x as one fused float32 node (sru.Affine):
// the head's layers, which run over every frame of the minibatch and, as
// gorgonia's MatMul and broadcast add, cost a float64 product, a repeated
// bias and two copies each. The gradient checks turn sru.Float32Products
// off and get the float64 graph.
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

// product32 is x·w as one fused float32 node (sru.MatMul; float64 when the
// gradient checks turn sru.Float32Products off).
func product32(net *nn.Net, x, w *autodiff.Node) *autodiff.Node {
	y, err := sru.MatMul(net, x, w)
	if err != nil {
		return net.Fail("product", err)
	}
	return y
}

// halfLog2Pi is ½·log 2π, the constant of the Gaussian log-density.
var halfLog2Pi = 0.5 * math.Log(2*math.Pi)
