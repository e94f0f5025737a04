package am

import (
	"errors"
	"fmt"
	"io"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/acoustic/strodehead"
)

// strodeArch is the "strode" kind: the SRU encoder, the affine output on it,
// and the regenerative STRODE postdictive head (doc.go's equations):
// t̃_i = Φ(ε0, e_i), h̃_i = h(t̃_i) from h(0) = P·e_i, logits = W·e + W_h·h̃ + b
// (--head-variant=paper; htilde and gated feed the output layer otherwise,
// strodehead/variant.go), with the KL term and the Gaussian prior on h̃ in
// the loss. Its parameters are the encoder "sru.L.*", the output "out.*"
// and the head's "out.ode.weight" (not for htilde), "ode.*", "phi.*",
// "prior.*", "gauss.*" and, for gated, "out.gate.*", in that order.
type strodeArch struct {
	enc  *sru.Encoder
	head *strodehead.Head
	out  *nn.Linear // the model's output layer (Model.Out), which the head's variant feeds
}

// headConfig is the head's part of o.
func headConfig(o Options) strodehead.Config {
	return strodehead.Config{In: o.SRU.OutDim(), InputDim: o.PriorDim(), NumPdfs: o.NumPdfs, State: o.ODEState,
		ODEHidden: o.ODEHidden, PhiHidden: o.PhiHidden, PriorHidden: o.PriorHidden, PhiZ: o.PhiZ, Eps0: o.Eps0,
		WKL: o.WKL, WP: o.WP, ODE: o.ODE, KL: o.KL, Fixed: o.FixedTTilde, Variant: o.HeadVariant,
		MaxLookahead: o.MaxLookahead, WLatency: o.WLatency}
}

func (*strodeArch) preset(string, *Options) {} // Preset's sizes

func (*strodeArch) validate(o Options) error {
	if o.HeadVariant == HeadLookahead {
		// The variant gives a causal encoder a learned look-ahead: a
		// bidirectional one sees the whole utterance already, and a target
		// delay would add a second, fixed one.
		if o.SRU.Bidirectional {
			return fmt.Errorf("am: --head-variant=lookahead needs a causal encoder (--bidirectional=false): a bidirectional one already reads the whole utterance")
		}
		if o.TargetDelay != 0 {
			return fmt.Errorf("am: --head-variant=lookahead with --target-delay=%d: the look-ahead is the head's (--max-lookahead); use one or the other", o.TargetDelay)
		}
	}
	return headConfig(o).Validate()
}

func (*strodeArch) shapes(o Options, s *shapeList) {
	s.sruStack("sru", o.InputDim, o.SRU)
	s.linear("out", headConfig(o).OutIn(), o.NumPdfs)
	strodehead.Shapes(headConfig(o), s.add)
}

func (*strodeArch) limits(o Options) (sizes, layers []namedSize) {
	return []namedSize{{"sru hidden", o.SRU.Hidden}, {"ode_state", o.ODEState}, {"ode_hidden", o.ODEHidden},
			{"phi_hidden", o.PhiHidden}, {"prior_hidden", o.PriorHidden}, {"prior_input_dim", o.PriorInputDim}},
		[]namedSize{{"SRU layers", o.SRU.Layers}}
}

func (*strodeArch) describe(w io.Writer, o Options) {
	describeEncoder(w, o)
	strodehead.Describe(w, headConfig(o))
	if o.PriorInput == PriorTeacher {
		fmt.Fprintf(w, "prior input\ta teacher's encoder output at frame i (%d values; training only, strode train --prior-teacher)\n", o.PriorInputDim)
	}
}

// paperMillions: §5.1 of the STRODE paper, 9 × 900 SRU with ODE state 128.
func (*strodeArch) paperMillions(o Options) (int, bool) {
	p, _ := PresetFor("paper", KindSTRODE)
	return 76, o.SRU.Hidden == p.SRU.Hidden && o.SRU.Layers == p.SRU.Layers && o.ODEState == p.ODEState
}

func (*strodeArch) readsAhead(o Options) bool { return o.SRU.Bidirectional }

func (a *strodeArch) init(m *Model, rng *rand.Rand) error {
	o := m.Opts
	var err error
	if a.enc, err = newSRUEncoder(m, rng); err != nil {
		return err
	}
	m.Out = nn.NewLinear(&m.Params, "out", headConfig(o).OutIn(), o.NumPdfs, rng)
	a.out = m.Out
	a.head = strodehead.New(&m.Params, headConfig(o), rng)
	return nil
}

func (a *strodeArch) layers(net *nn.Net, x, mask *autodiff.Node, t, b int, mode Mode) (layers, error) {
	e, e32, drop, err := a.enc.ApplyShared(net, x, mask, t, b, mode == Train)
	if err != nil {
		return layers{}, err
	}
	hd := a.head
	h, err := hd.Build(net, e, e32, t*b)
	if err != nil {
		return layers{}, err
	}
	read := e // what W reads: e, or for lookahead e ahead of the frame
	if hd.Cfg.Lookahead() {
		read = hd.ReadAhead(net, e, h.TTilde, mask, b)
	}
	xs, ws := hd.OutputTerms(net, read, h.HTilde, a.out.W)
	ly := layers{enc: e, outIn: xs[0], more: xs[1:], moreW: ws[1:], drops: []*sru.Dropout{drop},
		ttilde: h.TTilde, htilde: h.HTilde}
	if mode == Infer {
		return ly, nil
	}
	// The KL rows are built here, before the output layer and the
	// cross-entropy, as they always were: the order of the graph's nodes
	// is the order in which the reverse pass sums gradients.
	var klRows *autodiff.Node
	if h.BZ != nil {
		klRows = hd.KLRows(net, h.BZ)
	}
	ly.loss = func(net *nn.Net, bt *Batch, ce, maskw *autodiff.Node) (*autodiff.Node, error) {
		c := hd.Cfg
		if klRows != nil {
			bt.KL = net.Sum(net.Mul(klRows, maskw))
		}
		var xnext *autodiff.Node
		xnext, bt.xnext = net.Input("xnext", t*b, c.InputDim) // x_{i+1}, or the teacher's encoding of frame i
		// (1/S)·Σ log N(h̃; μ, softplus(a) + 1e-3) per frame, weighted by maskw.
		bt.LogP = hd.PriorLogLik(net, h.HTilde, xnext, maskw)
		var loss *autodiff.Node
		if bt.KL == nil { // fixed t̃: no KL term
			loss = net.Add(ce, net.Scale(bt.LogP, -c.WP))
		} else {
			loss = net.Add(ce, net.Add(net.Scale(bt.KL, c.WKL), net.Scale(bt.LogP, -c.WP)))
		}
		if c.Lookahead() {
			bt.Latency = hd.Latency(net, h.TTilde, maskw)
			if c.Fixed == nil && c.WLatency != 0 { // a fixed t̃ has nothing to price
				loss = net.Add(loss, net.Scale(bt.Latency, c.WLatency))
			}
		}
		return loss, nil
	}
	return ly, nil
}

// ErrLookaheadStream is returned by NewStream for --head-variant=lookahead,
// which does not decode online yet.
var ErrLookaheadStream = errors.New("am: --head-variant=lookahead does not decode online yet: frame i's output waits for ceil(min(t~_i, L)) more frames, which the stream does not buffer; decode offline (forward | latgen-faster-mapped)")

func (a *strodeArch) newStream(m *Model) (streamer, error) {
	if a.head.Cfg.Lookahead() {
		return nil, ErrLookaheadStream
	}
	enc, err := a.enc.NewStream()
	if err != nil {
		return nil, err
	}
	s := &strodeStream{enc: enc}
	s.tails = newTails(m.Opts.NumPdfs, func(rows int) (*tail, error) {
		// As layers (Infer) builds it, on an input node instead of the
		// encoder's output.
		net := nn.NewNet()
		e, in := net.Input("e", rows, m.Opts.SRU.OutDim())
		h, err := a.head.Build(net, e, nil, rows)
		if err != nil {
			return nil, err
		}
		xs, ws := a.head.OutputTerms(net, e, h.HTilde, m.Out.W)
		logits, err := sru.AffineSum(net, xs, ws, m.Out.B)
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
func (m *Model) strode(what string) (*strodehead.Head, error) {
	a, ok := m.arch.(*strodeArch)
	if !ok {
		return nil, fmt.Errorf("am: %s needs a strode model, this one is %q", what, m.Opts.Kind)
	}
	if a.head.Cfg.Lookahead() {
		// The replays take one frame's e; this head's W reads e at
		// i + min(t̃, L), which that frame's e does not give.
		return nil, fmt.Errorf("am: %s is not implemented for --head-variant=lookahead (its output layer reads the encoder ahead of the frame)", what)
	}
	return a.head, nil
}

// Trajectory is the paper's Figure 3 for one frame (Model.Postdiction).
type Trajectory = strodehead.Trajectory

// HeadEffect is how much the STRODE head's ODE moves one frame's output
// (Model.HeadEffect).
type HeadEffect = strodehead.Effect

// Postdiction integrates h from h(0) = P·e over [0, 2t̃] with the head's
// Euler steps (step t̃/K, 2K steps) in plain float64 and returns the
// softmax of W·[e; h(t)] + b at every step. e is the encoder output of the
// frame (Hidden values), label its aligned pdf-id or −1.
func (m *Model) Postdiction(e []float64, tt float64, label int) (*Trajectory, error) {
	hd, err := m.strode("postdiction")
	if err != nil {
		return nil, err
	}
	return hd.Postdiction(e, m.Out, tt, label)
}

// HeadEffect integrates h from P·e over [0, tt] in the model's K Euler
// steps in plain float64 (as Postdiction) and returns the label's
// log-probability and the arg-max at both ends. label must be a pdf-id.
func (m *Model) HeadEffect(e []float64, tt float64, label int) (HeadEffect, error) {
	hd, err := m.strode("the head's effect")
	if err != nil {
		return HeadEffect{}, err
	}
	return hd.Effect(e, m.Out, tt, label)
}
