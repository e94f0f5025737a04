package strode

import (
	"flag"
	"fmt"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/optim"
)

// Posterior encoders of the sequential model.
const (
	EncoderPaper   = "paper"   // z_i = enc(x_i), the paper
	EncoderContext = "context" // z_i = enc(x_{i−1}, x_i), ours (x_{−1} := x_0)
)

// SequentialOptions configures a sequential STRODE model; the defaults are
// the paper's sizes for the sine recipe.
type SequentialOptions struct {
	Encoder   string  // "paper" or "context"
	EncHidden int     // encoder width (= latent size)
	EncLayers int     // FC+ReLU layers of the encoder
	PhiHidden int     // hidden size of Φ and φ
	ODEHidden int     // hidden size of the ODE function f_o
	WKL       float64 // weight of the KL term
	UnitGaps  bool    // NODE baseline: every gap is 1, no Φ, no KL
	// Anchor adds the reconstruction error of x_j decoded from the ODE's
	// initial state z_j to the loss (an experiment, off by default: not in
	// DESIGN.md §3). It ties h(τ = 0) to x_j so that the flow over a gap
	// must carry x_j to x_{j+1}.
	Anchor bool
	// ContinueState carries the ODE state across intervals, h(t_0) = z_0
	// and h(t_{j+1}) = flow of h(t_j) over [t_j, t_{j+1}], instead of
	// restarting from z_j (an experiment, off by default: DESIGN.md §3
	// restarts). The observations then enter only through the boundaries.
	ContinueState bool
	// LinearODE replaces f_o by one linear map, dh/dτ = h·A + c (an
	// experiment, off by default): a linear flow cannot warp time by a
	// state-dependent speed, so with Anchor the gaps must follow the data.
	LinearODE bool
	// SkewODE (with LinearODE, an experiment) makes the linear map
	// skew-symmetric, dh/dτ = h·(A − Aᵀ) + c: every solution is a rotation
	// about a fixed point at constant angular speeds, so equal times give
	// equal phase advances everywhere on an orbit (no learned time warp).
	SkewODE bool
	// SkewPlanes (> 0, with SkewODE) keeps only the first SkewPlanes 2×2
	// blocks of the skew-symmetric map (coordinates 2p, 2p+1 rotate at one
	// learned speed each; the rest of the state stays constant): with one
	// plane the flow has a single frequency, so no sum of modes can imitate
	// a time warp either.
	SkewPlanes int
	// PhaseState (an experiment) replaces the ODE state by a point on the
	// unit circle: h(t_j) = u/|u| with u = z_j·P + p, the flow a rotation
	// dh/dτ = h·(W − Wᵀ) (W 2×2, so one learned angular speed) and the
	// decoder one Linear layer of h. Amplitude and offset of the decoded
	// sinusoid are then the same for every start point, so a start point
	// can only choose a phase, and a gap only a phase advance: neither can
	// stretch time for some values and not others. This builds in a
	// single-frequency oscillator (prior knowledge of the sine data);
	// combine with Horizon ≥ 2 so that phase advances must compose.
	PhaseState bool
	// Horizon H > 1 (an experiment; 1, the default, is DESIGN.md §3) also
	// continues each restarted solve over the following gaps: from z_j the
	// flow runs over Δ_{j+1}, Δ_{j+2}, … Δ_{j+H} and the state after each is
	// decoded into x_{j+1} … x_{j+H}; the loss is the mean of the H MSEs.
	// With H = 1 any monotone code of x_{j+1} in the gap predicts as well as
	// the true gap; with H ≥ 2 the state reached over one gap must be the
	// starting point of the next, so the gaps must compose as times do.
	Horizon int
	// RotationInit (ω ≠ 0, an experiment, off by default) initialises f_o
	// close to a rotation of angular speed ω in the plane of the state's
	// first two coordinates (W0 ≈ I, W1 ≈ I, W2 ≈ ω·J on top of 0.1·Glorot
	// noise), so that with ContinueState the flow starts out periodic and a
	// sine is decoded as a function of elapsed time.
	RotationInit float64
	// PhiInit scales Φ's first time layer W1 and its last input layer V3
	// after their ±|Glorot| initialisation (1, the default, leaves them; an
	// experiment). Glorot's W1 makes a(t) fall to its floor within the first
	// gap, and b(z) shrinks with |x|, so the initial gaps decay ~20× along a
	// sequence and the total time hardly grows. A small scale (e.g. 0.01)
	// starts with a ≈ b ≈ 0, i.e. every gap ≈ ln 2: an evenly spaced (index
	// like) start from which the gaps can learn to deviate.
	PhiInit float64
	// OracleGaps (s > 0, a diagnostic, off by default) runs the ODE over the
	// true gaps scaled by s instead of the inferred ones (Batch.SetTimes
	// supplies them): if the model cannot fit the data with the true gaps,
	// no inference of the gaps can find them.
	OracleGaps float64
	// GraphForms builds the encoder, b(z), Φ's recurrence, the prior
	// density and the KL term from graph operations (the readable forms)
	// instead of their fused nodes: the same numbers to rounding, several
	// times the graph machinery (for checks, and to reproduce runs made
	// before the fused nodes existed bit for bit).
	GraphForms bool
	ODE        ode.Options
	KL         KLOptions
	InputDim   int // values per observation (1 for the sine waves)
}

// DefaultSequentialOptions are the paper's sine sizes: encoder 2 FC ReLU × 8,
// Φ/φ hidden 16, f_o hidden 8, 10 Euler steps, ε = 0.1, w_kl = 1e-7; the
// fused Euler solve in float32 as the reference code trains (the gradient
// checks set float64).
func DefaultSequentialOptions() SequentialOptions {
	o := SequentialOptions{Encoder: EncoderContext, EncHidden: 8, EncLayers: 2, PhiHidden: 16, ODEHidden: 8,
		WKL: 1e-7, PhiInit: 1, Horizon: 1, ODE: ode.DefaultOptions(), KL: KLOptions{Epsilon: 0.1}, InputDim: 1}
	o.ODE.DType = ode.Float32
	return o
}

// Register adds the options to fs (the encoder choice and UnitGaps are left
// to the recipe, which trains every variant).
func (o *SequentialOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.EncHidden, "enc-hidden", o.EncHidden, "encoder width (latent size)")
	fs.IntVar(&o.EncLayers, "enc-layers", o.EncLayers, "encoder FC+ReLU layers")
	fs.IntVar(&o.PhiHidden, "phi-hidden", o.PhiHidden, "hidden size of the boundary network and the prior")
	fs.IntVar(&o.ODEHidden, "ode-hidden", o.ODEHidden, "hidden size of the ODE function")
	fs.Float64Var(&o.WKL, "w-kl", o.WKL, "weight of the KL term")
	fs.BoolVar(&o.ContinueState, "continue-state", o.ContinueState, "experimental: carry the ODE state across intervals from z_0 instead of restarting from z_j")
	fs.BoolVar(&o.LinearODE, "linear-ode", o.LinearODE, "experimental: linear ODE function dh/dt = h*A + c instead of the MLP")
	fs.BoolVar(&o.PhaseState, "phase-state", o.PhaseState, "experimental: ODE state on the unit circle rotating at one learned speed, decoded linearly")
	fs.IntVar(&o.Horizon, "horizon", o.Horizon, "experimental: continue each solve over this many following gaps and add their prediction errors (1: DESIGN's one-step model)")
	fs.Float64Var(&o.RotationInit, "rotation-init", o.RotationInit, "experimental: initialise the ODE function near a rotation of this angular speed (0: Glorot)")
	fs.Float64Var(&o.PhiInit, "phi-init-scale", o.PhiInit, "experimental: scale of the boundary network's W1 and V3 at initialisation (1: Glorot; small: every gap starts near ln 2)")
	fs.Float64Var(&o.OracleGaps, "oracle-gaps", o.OracleGaps, "diagnostic: run the ODE over the true gaps times this scale instead of the inferred ones (0: off)")
	fs.BoolVar(&o.SkewODE, "skew-ode", o.SkewODE, "experimental: with --linear-ode, make the linear map skew-symmetric (pure rotations)")
	fs.IntVar(&o.SkewPlanes, "skew-planes", o.SkewPlanes, "experimental: with --skew-ode, rotate only this many coordinate planes (0: all)")
	fs.BoolVar(&o.GraphForms, "graph-forms", o.GraphForms, "build the encoder, b(z), the boundary recurrence, the prior density and the KL term from graph operations instead of fused nodes (same numbers to rounding, slower)")
	fs.BoolVar(&o.Anchor, "anchor", o.Anchor, "experimental: also decode x_j from the ODE's initial state z_j and add that MSE to the loss")
	o.ODE.Register(fs)
	fs.StringVar(&o.ODE.DType, "ode-dtype", o.ODE.DType, "precision of the fused Euler ODE solve: float32 (as the reference code trains) or float64")
	o.KL.Register(fs)
}

// Validate checks the options.
func (o SequentialOptions) Validate() error {
	if o.Encoder != EncoderPaper && o.Encoder != EncoderContext {
		return fmt.Errorf("strode: unknown encoder %q (want paper or context)", o.Encoder)
	}
	if o.Horizon < 1 {
		return fmt.Errorf("strode: horizon %d, must be ≥ 1", o.Horizon)
	}
	if o.EncHidden < 1 || o.EncLayers < 1 || o.PhiHidden < 1 || o.ODEHidden < 1 || o.InputDim < 1 {
		return fmt.Errorf("strode: sizes must be ≥ 1: %+v", o)
	}
	if _, err := NewKL(o.KL); err != nil {
		return err
	}
	return o.ODE.Validate()
}

// Sequential is the sequential STRODE model of DESIGN.md §3: encode every
// observation, sample boundaries t_0 = 0, t_i = Φ(t_{i−1}, z_i), solve
// dh/dτ = f_o(h) from h = z_j over [t_j, t_{j+1}], decode, predict x_{j+1};
// loss = MSE + w_kl·mean KL term.
type Sequential struct {
	Opts     SequentialOptions
	Params   Params
	Enc      *MLP
	ODE      [3]*Linear   // f_o = Linear→tanh→Linear→tanh→Linear
	LinODE   *Linear      // f_o for LinearODE
	H0       *optim.Param // 1×D learned initial state offset for ContinueState
	PhaseIn  *Linear      // PhaseState: z → u (D → 2)
	PhaseW   *optim.Param // PhaseState: 2×2, rotation generator W − Wᵀ
	PhaseDec *Linear      // PhaseState: decoder of the unit-circle state
	Dec      *Linear
	Boundary *Boundary // nil for unit gaps
	Prior    *Prior    // nil for unit gaps
	kl       *KL
}

// NewSequential builds the parameters, initialised from rng.
func NewSequential(o SequentialOptions, rng *rand.Rand) (*Sequential, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	m := &Sequential{Opts: o}
	in := o.InputDim
	if o.Encoder == EncoderContext {
		in *= 2
	}
	d := o.EncHidden
	m.Enc = NewMLP(&m.Params, "enc", in, d, o.EncLayers, rng)
	m.ODE[0] = NewLinear(&m.Params, "ode.0", d, o.ODEHidden, rng)
	m.ODE[1] = NewLinear(&m.Params, "ode.1", o.ODEHidden, o.ODEHidden, rng)
	m.ODE[2] = NewLinear(&m.Params, "ode.2", o.ODEHidden, d, rng)
	m.Dec = NewLinear(&m.Params, "dec", d, o.InputDim, rng)
	if o.LinearODE {
		m.LinODE = NewLinear(&m.Params, "ode.linear", d, d, rng)
	}
	if o.RotationInit != 0 {
		m.rotationInit(rng)
	}
	if o.PhaseState {
		m.PhaseIn = NewLinear(&m.Params, "ode.phase.in", d, 2, rng)
		// Angular speed 3: Φ's gaps are at most ln 2 (a, b ≤ 0), and a
		// rotation too slow for the data's phase advances would push them
		// against that cap, where the projection zeroes V3 and Φ dies. At
		// ω = 3 the data's mean advance (2π·0.1 per point) is a gap of ≈ 0.2.
		m.PhaseW = m.Params.Zero("ode.phase.weight", 2, 2)
		m.PhaseW.Data[1], m.PhaseW.Data[2] = 1.5, -1.5
		m.PhaseDec = NewLinear(&m.Params, "dec.phase", 2, o.InputDim, rng)
	}
	if o.ContinueState {
		// h(t_0) = z_0 + h0: x_0 is the same for every sequence, so z_0 alone
		// starts every trajectory at (almost) one point, and with ReLU
		// features and zero biases that point is 0, a fixed point of a
		// bias-free f_o; h0 = (0.5, 0, …) starts on the rotation's orbit.
		m.H0 = m.Params.Zero("ode.h0", 1, d)
		m.H0.Data[0] = 0.5
	}
	if !o.UnitGaps {
		m.Boundary = NewBoundary(&m.Params, "phi", d, o.PhiHidden, rng)
		m.Prior = NewPrior(&m.Params, "prior", o.PhiHidden, rng)
		for _, p := range []*optim.Param{m.Boundary.W1, m.Boundary.V3} {
			for i := range p.Data {
				p.Data[i] *= o.PhiInit
			}
		}
	}
	m.kl, _ = NewKL(o.KL)
	return m, nil
}

// rotationInit sets f_o(h) = tanh(tanh(h·W0)·W1)·W2 close to h·ω·J with
// J = [[0, 1], [−1, 0]] on the first two coordinates: W0 and W1 are
// identities (on min(D, H) coordinates), W2 holds ±ω, plus 0.1× the Glorot
// values so that the other coordinates are not dead.
func (m *Sequential) rotationInit(rng *rand.Rand) {
	w := m.Opts.RotationInit
	d, h := m.Opts.EncHidden, m.Opts.ODEHidden
	for _, l := range m.ODE {
		for i := range l.W.Data {
			l.W.Data[i] *= 0.1
		}
	}
	for i := 0; i < min(d, h); i++ {
		m.ODE[0].W.Data[i*h+i] += 1
	}
	for i := 0; i < h; i++ {
		m.ODE[1].W.Data[i*h+i] += 1
	}
	if d >= 2 && h >= 2 {
		m.ODE[2].W.Data[0*d+1] += w
		m.ODE[2].W.Data[1*d+0] -= w
	}
}

// linearFunc is the LinearODE function h·A + c, or h·(A − Aᵀ) + c with
// SkewODE.
func (m *Sequential) linearFunc(n *Net) ode.Func {
	a := n.P(m.LinODE.W)
	if m.Opts.SkewODE {
		a = n.Sub(a, n.T(a))
		if k := m.Opts.SkewPlanes; k > 0 {
			d := m.Opts.EncHidden
			mask := make([]float64, d*d)
			for p := 0; p < k && 2*p+1 < d; p++ {
				mask[2*p*d+2*p+1], mask[(2*p+1)*d+2*p] = 1, 1
			}
			a = n.Mul(a, n.Const("ode.skew.mask", mask, d, d))
		}
	}
	c := n.P(m.LinODE.B)
	return func(h *autodiff.Node) *autodiff.Node { return n.AddRow(n.MatMul(h, a), c) }
}

// phaseStart is PhaseState's start point u/|u| on the unit circle, u =
// z·P + p (the norm guarded by 1e-6 under the square root).
func (m *Sequential) phaseStart(n *Net, z *autodiff.Node) *autodiff.Node {
	u := m.PhaseIn.Apply(n, z)
	r2 := n.MatMul(n.Square(u), n.Const("ode.phase.ones", []float64{1, 1}, 2, 1))
	inv := n.Exp(n.Scale(n.Log(n.AddConst(r2, 1e-6)), -0.5))
	return n.MulCol(u, inv)
}

// phaseFunc is PhaseState's rotation h·(W − Wᵀ).
func (m *Sequential) phaseFunc(n *Net) ode.Func {
	w := n.P(m.PhaseW)
	a := n.Sub(w, n.T(w))
	return func(h *autodiff.Node) *autodiff.Node { return n.MatMul(h, a) }
}

// mlp is the ODE function f_o bound to this graph.
func (m *Sequential) mlp(n *Net) ode.MLP {
	return ode.MLP{W0: n.P(m.ODE[0].W), B0: n.P(m.ODE[0].B), W1: n.P(m.ODE[1].W), B1: n.P(m.ODE[1].B),
		W2: n.P(m.ODE[2].W), B2: n.P(m.ODE[2].B)}
}

// Batch is the sequential model's graph for batches of B sequences of N
// observations, built once and run for every batch.
type Batch struct {
	B, N      int
	Net       *Net
	Loss, MSE *autodiff.Node // scalars
	KL        *autodiff.Node // scalar: mean KL term (nil for unit gaps)
	Pred      *autodiff.Node // ((N−1)·B)×D: predictions of x_1 … x_{N−1}, step-major
	Gaps      *autodiff.Node // ((N−1)·B)×1: inferred t_i − t_{i−1}, step-major (nil for unit gaps)
	Machine   *autodiff.Machine
	Params    []*optim.Param // parameters of this graph, in gradient order
	enc, tgt  []float64
	trueGaps  []float64 // OracleGaps: scaled true gaps, step-major
	prev      []float64 // x_0 … x_{N−2}, targets of the anchor term
	model     *Sequential
}

// Build returns the graph for batches of b sequences of n observations; with
// train it also computes the gradients of the loss.
func (m *Sequential) Build(b, n int, train bool) (*Batch, error) {
	if n < 2 || b < 1 {
		return nil, fmt.Errorf("strode: batch %d×%d: need ≥ 1 sequence of ≥ 2 observations", b, n)
	}
	o := m.Opts
	net := NewNet()
	bt := &Batch{B: b, N: n, Net: net, model: m}
	din := o.InputDim
	if o.Encoder == EncoderContext {
		din *= 2
	}
	x, enc := net.Input("x", n*b, din) // row i·B + s: observation i of sequence s
	y, tgt := net.Input("y", (n-1)*b, o.InputDim)
	bt.enc, bt.tgt = enc, tgt
	var z *autodiff.Node
	if o.GraphForms {
		z = m.Enc.Apply(net, x)
	} else {
		z = m.Enc.ApplyFused(net, x)
	}

	var gaps *autodiff.Node
	if o.UnitGaps {
		ones := make([]float64, (n-1)*b)
		for i := range ones {
			ones[i] = 1
		}
		gaps = net.Const("gaps", ones, (n-1)*b, 1)
	} else {
		if o.GraphForms {
			gaps, bt.KL = m.graphBoundary(net, z, b, n)
		} else {
			// b(z_i) for i = 1 … n−1: the boundary steps and q(t | z_i).
			bz := net.Rows(m.Boundary.BFused(net, z), b, n*b)
			gaps = m.Boundary.Gaps(net, bz, b)
			// KL term of q(t | z_i) = Boundary.Density against p =
			// Prior.Density, both fused (the graph forms cost ~250 nodes).
			p := m.Prior.DensityFused(net, m.kl.Nodes())
			bt.KL = net.Mean(m.Boundary.KLTerm(net, m.kl, bz, p))
		}
		bt.Gaps = gaps
	}
	if o.OracleGaps > 0 {
		var g *autodiff.Node
		g, bt.trueGaps = net.Input("truegaps", (n-1)*b, 1)
		gaps = g
	}
	solver := ode.Solver{Opts: o.ODE}
	var h *autodiff.Node
	decode := func(h *autodiff.Node) *autodiff.Node { return m.Dec.Apply(net, h) }
	if o.PhaseState {
		decode = func(h *autodiff.Node) *autodiff.Node { return m.PhaseDec.Apply(net, h) }
		h = solver.Solve(net.Graph, m.phaseFunc(net), m.phaseStart(net, net.Rows(z, 0, (n-1)*b)), gaps)
	} else if o.LinearODE {
		f := m.linearFunc(net)
		h = solver.Solve(net.Graph, f, net.Rows(z, 0, (n-1)*b), gaps)
	} else if o.ContinueState {
		f := m.mlp(net)
		state := net.AddRow(net.Rows(z, 0, b), net.P(m.H0))
		var hs []*autodiff.Node
		for j := 0; j < n-1; j++ {
			state = solver.SolveMLP(net.Graph, f, state, net.Rows(gaps, j*b, (j+1)*b))
			hs = append(hs, state)
		}
		h = net.ConcatRows(hs...)
	} else {
		h = solver.SolveMLP(net.Graph, m.mlp(net), net.Rows(z, 0, (n-1)*b), gaps)
	}
	bt.Pred = decode(h)
	bt.MSE = net.Mean(net.Square(net.Sub(bt.Pred, y)))
	bt.Loss = bt.MSE
	if o.Horizon > 1 && !o.ContinueState {
		// Rows of h are the states at t_{j+1} reached from z_j, j = 0 … n−2;
		// step k continues the first n−k start points over Δ_{j+k}.
		solve := func(h0, span *autodiff.Node) *autodiff.Node { return solver.SolveMLP(net.Graph, m.mlp(net), h0, span) }
		if o.PhaseState {
			f := m.phaseFunc(net)
			solve = func(h0, span *autodiff.Node) *autodiff.Node { return solver.Solve(net.Graph, f, h0, span) }
		} else if o.LinearODE {
			f := m.linearFunc(net)
			solve = func(h0, span *autodiff.Node) *autodiff.Node { return solver.Solve(net.Graph, f, h0, span) }
		}
		horizons := 1
		for k := 2; k <= o.Horizon && k < n; k++ {
			h = solve(net.Rows(h, 0, (n-k)*b), net.Rows(gaps, (k-1)*b, (n-1)*b))
			mse := net.Mean(net.Square(net.Sub(decode(h), net.Rows(y, (k-1)*b, (n-1)*b))))
			bt.Loss = net.Add(bt.Loss, mse)
			horizons++
		}
		bt.Loss = net.Scale(bt.Loss, 1/float64(horizons))
	}
	if o.Anchor {
		xp, prev := net.Input("xprev", (n-1)*b, o.InputDim)
		bt.prev = prev
		recon := m.Dec.Apply(net, net.Rows(z, 0, (n-1)*b))
		bt.Loss = net.Add(bt.Loss, net.Mean(net.Square(net.Sub(recon, xp))))
	}
	if bt.KL != nil {
		bt.Loss = net.Add(bt.Loss, net.Scale(bt.KL, o.WKL))
	}
	var wrt []*autodiff.Node
	if train {
		bt.Params, wrt = net.Bound()
	}
	mc, err := net.Compile(bt.Loss, wrt)
	if err != nil {
		return nil, err
	}
	bt.Machine = mc
	return bt, nil
}

// graphBoundary is the gaps and the mean KL term built from graph
// operations (SequentialOptions.GraphForms): b(z), the loop of
// Boundary.Next, Boundary.Density, Prior.Density and KL.Term.
func (m *Sequential) graphBoundary(net *Net, z *autodiff.Node, b, n int) (gaps, kl *autodiff.Node) {
	bz := m.Boundary.B(net, z)
	t := net.Const("t0", make([]float64, b), b, 1)
	var gs []*autodiff.Node
	for i := 1; i < n; i++ {
		var gap *autodiff.Node
		t, gap = m.Boundary.Next(net, t, net.Rows(bz, i*b, (i+1)*b))
		gs = append(gs, gap)
	}
	q := m.Boundary.Density(net, m.kl.Nodes(), net.Rows(bz, b, n*b))
	p := m.Prior.Density(net, m.kl.Nodes())
	return net.ConcatRows(gs...), net.Mean(m.kl.Term(net.Graph, q, p))
}

// Set loads a batch: seqs[s][i] holds observation i (InputDim values) of
// sequence s; exactly B sequences of N observations.
func (bt *Batch) Set(seqs [][][]float64) error {
	d := bt.model.Opts.InputDim
	ctx := bt.model.Opts.Encoder == EncoderContext
	if len(seqs) != bt.B {
		return fmt.Errorf("strode: batch of %d sequences, graph built for %d", len(seqs), bt.B)
	}
	w := d
	if ctx {
		w = 2 * d
	}
	for s, seq := range seqs {
		if len(seq) != bt.N {
			return fmt.Errorf("strode: sequence %d has %d observations, graph built for %d", s, len(seq), bt.N)
		}
		for i, obs := range seq {
			if len(obs) != d {
				return fmt.Errorf("strode: sequence %d observation %d has %d values, want %d", s, i, len(obs), d)
			}
			row := bt.enc[(i*bt.B+s)*w:]
			if ctx {
				prev := seq[max(i-1, 0)]
				copy(row[:d], prev)
				copy(row[d:2*d], obs)
			} else {
				copy(row[:d], obs)
			}
			if i > 0 {
				copy(bt.tgt[((i-1)*bt.B+s)*d:], obs)
			}
			if bt.prev != nil && i < bt.N-1 {
				copy(bt.prev[(i*bt.B+s)*d:], obs)
			}
		}
	}
	return nil
}

// SetTimes loads the true times of the batch's sequences (times[s][i]) for
// OracleGaps; other models ignore them.
func (bt *Batch) SetTimes(times [][]float64) error {
	if bt.trueGaps == nil {
		return nil
	}
	if len(times) != bt.B {
		return fmt.Errorf("strode: batch of %d time sequences, graph built for %d", len(times), bt.B)
	}
	for s, ts := range times {
		if len(ts) != bt.N {
			return fmt.Errorf("strode: time sequence %d has %d values, graph built for %d", s, len(ts), bt.N)
		}
		for i := 1; i < bt.N; i++ {
			bt.trueGaps[(i-1)*bt.B+s] = bt.model.Opts.OracleGaps * (ts[i] - ts[i-1])
		}
	}
	return nil
}

// Run evaluates the loaded batch; after a training graph's run every
// parameter's Grad holds d loss / d parameter.
func (bt *Batch) Run() error {
	if err := bt.Machine.Run(); err != nil {
		return err
	}
	for i, p := range bt.Params {
		copy(p.Grad, bt.Machine.Grad(i))
	}
	return nil
}

// Scalar is the value of a scalar node after a run (0 for nil).
func Scalar(n *autodiff.Node) float64 {
	if n == nil {
		return 0
	}
	return autodiff.Value(n)[0]
}

// InferredTimes are the boundaries t_0 … t_{N−1} of every sequence after a
// run: out[s][i]. Unit-gap models give 0 … N−1.
func (bt *Batch) InferredTimes() [][]float64 {
	out := make([][]float64, bt.B)
	for s := range out {
		out[s] = make([]float64, bt.N)
	}
	if bt.model.Opts.UnitGaps {
		for s := range out {
			for i := range out[s] {
				out[s][i] = float64(i)
			}
		}
		return out
	}
	// t_i = t_{i−1} + gap_i, the addition the recurrence makes.
	g := autodiff.Value(bt.Gaps)
	for i := 1; i < bt.N; i++ {
		for s := range out {
			out[s][i] = out[s][i-1] + g[(i-1)*bt.B+s]
		}
	}
	return out
}
