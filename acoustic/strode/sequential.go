package strode

import (
	"flag"
	"fmt"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
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
	// Variant is the form of the ODE state, its flow, the decoder and the
	// prediction horizon (variant.go): VariantPaper, the default, is
	// DESIGN.md §3.
	Variant Variant
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
		WKL: 1e-7, Variant: VariantPaper, ODE: ode.DefaultOptions(), KL: KLOptions{Epsilon: 0.1}, InputDim: 1}
	o.ODE.DType = ode.Float32
	return o
}

// Register adds the options to fs (the encoder choice and UnitGaps are left
// to the recipe, which trains every model).
func (o *SequentialOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.EncHidden, "enc-hidden", o.EncHidden, "encoder width (latent size)")
	fs.IntVar(&o.EncLayers, "enc-layers", o.EncLayers, "encoder FC+ReLU layers")
	fs.IntVar(&o.PhiHidden, "phi-hidden", o.PhiHidden, "hidden size of the boundary network and the prior")
	fs.IntVar(&o.ODEHidden, "ode-hidden", o.ODEHidden, "hidden size of the ODE function")
	fs.Float64Var(&o.WKL, "w-kl", o.WKL, "weight of the KL term")
	fs.StringVar((*string)(&o.Variant), "variant", string(o.Variant), "form of the ODE state, its flow, the decoder and the horizon: "+variantNames()+" (see acoustic/strode/variant.go)")
	fs.BoolVar(&o.GraphForms, "graph-forms", o.GraphForms, "build the encoder, b(z), the boundary recurrence, the prior density and the KL term from graph operations instead of fused nodes (same numbers to rounding, slower)")
	o.ODE.Register(fs)
	fs.StringVar(&o.ODE.DType, "ode-dtype", o.ODE.DType, "precision of the fused Euler ODE solve: float32 (as the reference code trains) or float64")
	o.KL.Register(fs)
}

// Validate checks the options.
func (o SequentialOptions) Validate() error {
	if o.Encoder != EncoderPaper && o.Encoder != EncoderContext {
		return fmt.Errorf("strode: unknown encoder %q (want paper or context)", o.Encoder)
	}
	if err := o.Variant.Validate(); err != nil {
		return err
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
// loss = MSE + w_kl·mean KL term. Opts.Variant may replace the ODE state,
// its flow, the decoder and the horizon (variant.go).
type Sequential struct {
	Opts     SequentialOptions
	Params   nn.Params
	Enc      *nn.MLP
	ODE      [3]*nn.Linear // f_o = Linear→tanh→Linear→tanh→Linear
	PhaseIn  *nn.Linear    // phase-state: z → u (D → 2)
	PhaseW   *optim.Param  // phase-state: 2×2, rotation generator W − Wᵀ
	PhaseDec *nn.Linear    // phase-state: decoder of the unit-circle state
	Dec      *nn.Linear
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
	m.Enc = nn.NewMLP(&m.Params, "enc", in, d, o.EncLayers, rng)
	// f_o and Dec are drawn for every variant (phase-state does not use
	// them), so that a seed initialises Φ, φ and the phase-state parameters
	// as in the runs behind RESULTS.md.
	m.ODE[0] = nn.NewLinear(&m.Params, "ode.0", d, o.ODEHidden, rng)
	m.ODE[1] = nn.NewLinear(&m.Params, "ode.1", o.ODEHidden, o.ODEHidden, rng)
	m.ODE[2] = nn.NewLinear(&m.Params, "ode.2", o.ODEHidden, d, rng)
	m.Dec = nn.NewLinear(&m.Params, "dec", d, o.InputDim, rng)
	if o.Variant == VariantPhaseState {
		m.PhaseIn = nn.NewLinear(&m.Params, "ode.phase.in", d, 2, rng)
		// Angular speed 3: Φ's gaps are at most ln 2 (a, b ≤ 0), and a
		// rotation too slow for the data's phase advances would push them
		// against that cap, where the projection zeroes V3 and Φ dies. At
		// ω = 3 the data's mean advance (2π·0.1 per point) is a gap of ≈ 0.2.
		m.PhaseW = m.Params.Zero("ode.phase.weight", 2, 2)
		m.PhaseW.Data[1], m.PhaseW.Data[2] = 1.5, -1.5
		m.PhaseDec = nn.NewLinear(&m.Params, "dec.phase", 2, o.InputDim, rng)
	}
	if !o.UnitGaps {
		m.Boundary = NewBoundary(&m.Params, "phi", d, o.PhiHidden, rng)
		m.Prior = NewPrior(&m.Params, "prior", o.PhiHidden, rng)
		o.Variant.InitBoundary(m.Boundary)
	}
	m.kl, _ = NewKL(o.KL)
	return m, nil
}

// phaseStart is phase-state's start point u/|u| on the unit circle, u =
// z·P + p (the norm guarded by 1e-6 under the square root).
func (m *Sequential) phaseStart(n *nn.Net, z *autodiff.Node) *autodiff.Node {
	u := m.PhaseIn.Apply(n, z)
	r2 := n.MatMul(n.Square(u), n.Const("ode.phase.ones", []float64{1, 1}, 2, 1))
	inv := n.Exp(n.Scale(n.Log(n.AddConst(r2, 1e-6)), -0.5))
	return n.MulCol(u, inv)
}

// phaseFunc is phase-state's rotation h·(W − Wᵀ).
func (m *Sequential) phaseFunc(n *nn.Net) ode.Func {
	w := n.P(m.PhaseW)
	a := n.Sub(w, n.T(w))
	return func(h *autodiff.Node) *autodiff.Node { return n.MatMul(h, a) }
}

// mlp is the ODE function f_o bound to this graph.
func (m *Sequential) mlp(n *nn.Net) ode.MLP {
	return ode.MLP{W0: n.P(m.ODE[0].W), B0: n.P(m.ODE[0].B), W1: n.P(m.ODE[1].W), B1: n.P(m.ODE[1].B),
		W2: n.P(m.ODE[2].W), B2: n.P(m.ODE[2].B)}
}

// Batch is the sequential model's graph for batches of B sequences of N
// observations, built once and run for every batch.
type Batch struct {
	B, N      int
	Net       *nn.Net
	Loss, MSE *autodiff.Node // scalars
	KL        *autodiff.Node // scalar: mean KL term (nil for unit gaps)
	Pred      *autodiff.Node // ((N−1)·B)×D: predictions of x_1 … x_{N−1}, step-major
	Gaps      *autodiff.Node // ((N−1)·B)×1: inferred t_i − t_{i−1}, step-major (nil for unit gaps)
	Machine   *autodiff.Machine
	Params    []*optim.Param // parameters of this graph, in gradient order
	enc, tgt  []float64
	cur       []float64 // phase-state: x_j for the start states' reconstruction
	model     *Sequential
}

// Build returns the graph for batches of b sequences of n observations; with
// train it also computes the gradients of the loss.
func (m *Sequential) Build(b, n int, train bool) (*Batch, error) {
	if n < 2 || b < 1 {
		return nil, fmt.Errorf("strode: batch %d×%d: need ≥ 1 sequence of ≥ 2 observations", b, n)
	}
	o := m.Opts
	net := nn.NewNet()
	bt := &Batch{B: b, N: n, Net: net, model: m}
	din := o.InputDim
	if o.Encoder == EncoderContext {
		din *= 2
	}
	x, enc := net.Input("x", n*b, din) // row i·B + s: observation i of sequence s
	y, tgt := net.Input("y", (n-1)*b, o.InputDim)
	bt.enc, bt.tgt = enc, tgt
	var cur *autodiff.Node
	if o.Variant == VariantPhaseState {
		cur, bt.cur = net.Input("x-start", (n-1)*b, o.InputDim)
	}
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
	solver := ode.Solver{Opts: o.ODE}
	if o.Variant == VariantPhaseState {
		m.phaseLoss(bt, net, solver, z, gaps, y, cur)
	} else {
		h := solver.SolveMLP(net.Graph, m.mlp(net), net.Rows(z, 0, (n-1)*b), gaps)
		bt.Pred = m.Dec.Apply(net, h)
		bt.MSE = net.Mean(net.Square(net.Sub(bt.Pred, y)))
		bt.Loss = bt.MSE
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
func (m *Sequential) graphBoundary(net *nn.Net, z *autodiff.Node, b, n int) (gaps, kl *autodiff.Node) {
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
			if bt.cur != nil && i < bt.N-1 {
				copy(bt.cur[(i*bt.B+s)*d:], obs)
			}
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

// phaseLoss sets bt.Pred, bt.MSE and bt.Loss (without the KL term) for
// VariantPhaseState: start states u/|u| from z_0 … z_{n−2}, each decoded
// against x_j (cur) and turned on over the next phaseHorizon gaps, each
// state decoded against its observation. bt.MSE is the one-step MSE of
// x_1 … x_{n−1}, the figure every variant reports.
func (m *Sequential) phaseLoss(bt *Batch, net *nn.Net, solver ode.Solver, z, gaps, y, cur *autodiff.Node) {
	b, n := bt.B, bt.N
	decode := func(h *autodiff.Node) *autodiff.Node { return m.PhaseDec.Apply(net, h) }
	f := m.phaseFunc(net)
	h := m.phaseStart(net, net.Rows(z, 0, (n-1)*b))
	loss := net.Mean(net.Square(net.Sub(decode(h), cur)))
	terms := 1
	// Rows of h are states reached from z_j, j = 0 … n−1−k after k gaps;
	// the next solve continues the first n−1−k of them over Δ_{j+k+1}.
	for k := 1; k <= phaseHorizon && k < n; k++ {
		h = solver.Solve(net.Graph, f, net.Rows(h, 0, (n-k)*b), net.Rows(gaps, (k-1)*b, (n-1)*b))
		pred := decode(h)
		mse := net.Mean(net.Square(net.Sub(pred, net.Rows(y, (k-1)*b, (n-1)*b))))
		if k == 1 {
			bt.Pred, bt.MSE = pred, mse
		}
		loss = net.Add(loss, mse)
		terms++
	}
	bt.Loss = net.Scale(loss, 1/float64(terms))
}
