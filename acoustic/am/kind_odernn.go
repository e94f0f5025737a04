package am

import (
	"fmt"
	"io"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/odernn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
)

// The odernn model is the STRODE paper's ODE-RNN baseline (after Rubanova
// et al. 2019) for frame classification; BASELINES.md gives every choice
// the paper leaves open and why:
//
//	e = SRU_enc(x)                              (SRU.Layers × SRU.Hidden)
//	[C_i | F_i] = e_i·A + a                     (one product for all frames)
//	p_0 = 0,  p_i = z_{i−1} evolved by dz/dτ = f_o(z) over τ ∈ [0, 1]
//	                                            (ODE.Steps Euler steps)
//	g_i = σ(F_i + v⊙p_i),  z_i = g_i⊙p_i + (1−g_i)⊙C_i     (state ODEState)
//	d = SRU_dec([e_i ; z_i])                    (DecoderLayers × SRU.Hidden)
//	logits_i = W·d_i + b
//
// The ODE is part of the recurrence, as in Rubanova's ODE-RNN (the state
// evolves between observations, then an RNN cell takes the observation);
// the cell is SRU-like (one gate, an elementwise light recurrence) and runs
// with its ODE solves as one fused operation over the whole block
// (package odernn).

// odernnArch is the "odernn" kind. Its parameters are the encoder
// "sru.L.*", the ODE-RNN layer "odernn.in.*" (A, a), "odernn.weight_c" (v)
// and "ode.0-2.*" (f_o), the decoder "dec.L.*" and the output "out.*".
type odernnArch struct {
	o       Options
	Enc     *sru.Encoder
	RNNIn   *nn.Linear    // e → [candidate | forget gate]
	RNNGate *optim.Param  // the forget gate's weight v on the evolved state
	ODE     [3]*nn.Linear // f_o
	Dec     *sru.Encoder
}

// preset: the paper's 9 SRU layers × 1100, ODE state 128 and 9 decoder
// layers (the STRODE paper's ODE-RNN baseline), or small's 2 + 2 layers ×
// 256 (ODE state 64, f_o hidden 32: about the small strode's parameters).
func (*odernnArch) preset(name string, o *Options) {
	if name == "paper" {
		o.SRU.Hidden, o.SRU.Layers, o.DecoderLayers = 1100, 9, 9
	} else {
		o.SRU.Layers, o.DecoderLayers = 2, 2
	}
}

func (*odernnArch) validate(o Options) error { return o.validateODERNN() }

func (*odernnArch) shapes(o Options, s *shapeList) {
	h, st := o.SRU.OutDim(), o.ODEState
	s.sruStack("sru", o.InputDim, o.SRU)
	s.linear("odernn.in", h, 2*st)
	s.add("odernn.weight_c", 1, st)
	s.odeMLP(st, o.ODEHidden)
	dec := o.SRU
	dec.Layers = o.DecoderLayers
	s.sruStack("dec", h+st, dec)
	s.linear("out", dec.OutDim(), o.NumPdfs)
}

func (*odernnArch) limits(o Options) (sizes, layers []namedSize) {
	return []namedSize{{"sru hidden", o.SRU.Hidden}, {"ode_state", o.ODEState}, {"ode_hidden", o.ODEHidden}},
		[]namedSize{{"SRU layers", o.SRU.Layers}, {"decoder layers", o.DecoderLayers}}
}

func (*odernnArch) describe(w io.Writer, o Options) {
	describeEncoder(w, o)
	fmt.Fprintf(w, "ode-rnn\tstate %d, f_o hidden %d, %d Euler steps over the unit interval between frames\n", o.ODEState, o.ODEHidden, o.ODE.Steps)
	fmt.Fprintf(w, "decoder\tSRU %d layers x %d%s on [encoder ; ode-rnn state]\n", o.DecoderLayers, o.SRU.Hidden, directions(o))
}

// paperMillions: §5.1 of the STRODE paper, 9 + 9 SRU layers × 1100 with
// ODE state 128.
func (*odernnArch) paperMillions(o Options) (int, bool) {
	p, _ := PresetFor("paper", KindODERNN)
	return 77, o.SRU.Hidden == p.SRU.Hidden && o.SRU.Layers == p.SRU.Layers && o.ODEState == p.ODEState && o.DecoderLayers == p.DecoderLayers
}

func (*odernnArch) readsAhead(o Options) bool { return o.SRU.Bidirectional }

func (a *odernnArch) init(model *Model, rng *rand.Rand) error {
	o := model.Opts
	a.o = o
	var err error
	if a.Enc, err = newSRUEncoder(model, rng); err != nil {
		return err
	}
	h, s := o.SRU.OutDim(), o.ODEState
	a.RNNIn = nn.NewLinear(&model.Params, "odernn.in", h, 2*s, rng)
	// v starts at 0, not at the SRU's U(±√3)·√0.5: v multiplies a state
	// that f_o moves by itself, and where v⊙p outweighs F the gate sits at
	// 1 for the units whose v and p agree in sign, so those integrate f_o's
	// drift frame after frame (BASELINES.md: an initial held-out CE of 15.5
	// on kaldi-mini against log 62 = 4.1).
	a.RNNGate = model.Params.Zero("odernn.weight_c", 1, s)
	a.ODE[0] = nn.NewLinear(&model.Params, "ode.0", s, o.ODEHidden, rng)
	a.ODE[1] = nn.NewLinear(&model.Params, "ode.1", o.ODEHidden, o.ODEHidden, rng)
	a.ODE[2] = nn.NewLinear(&model.Params, "ode.2", o.ODEHidden, s, rng)
	dec := o.SRU
	dec.Layers = o.DecoderLayers
	if a.Dec, err = sru.NewEncoder(&model.Params, "dec", h+s, dec, rng); err != nil {
		return err
	}
	a.Dec.InputGrad = true
	model.Out = nn.NewLinear(&model.Params, "out", dec.OutDim(), o.NumPdfs, rng)
	return nil
}

// layers builds encoder, ODE-RNN layer and decoder on x: the decoder's
// output (N × SRU.OutDim()) under the output layer, and the dropout masks
// of both SRU stacks.
func (a *odernnArch) layers(net *nn.Net, x, mask *autodiff.Node, t, b int, mode Mode) (layers, error) {
	o := a.o
	train := mode == Train
	e, dropEnc, err := a.Enc.Apply(net, x, mask, t, b, train)
	if err != nil {
		return layers{}, err
	}
	u, err := sru.Affine(net, e, a.RNNIn.W, a.RNNIn.B)
	if err != nil {
		return layers{}, err
	}
	k := odernn.NewCell(t, b, o.ODEState, o.ODEHidden, o.ODE.Steps, sru.Float32Products)
	z := net.Fused("odernn", k, u, net.P(a.RNNGate), mask,
		net.P(a.ODE[0].W), net.P(a.ODE[0].B), net.P(a.ODE[1].W), net.P(a.ODE[1].B), net.P(a.ODE[2].W), net.P(a.ODE[2].B))
	d, dropDec, err := a.Dec.Apply(net, net.Fused("concat", &concatCols{}, e, z), mask, t, b, train)
	if err != nil {
		return layers{}, err
	}
	return layers{enc: d, drops: []*sru.Dropout{dropEnc, dropDec}}, nil
}

func (o Options) validateODERNN() error {
	if o.DecoderLayers < 1 || o.ODEState < 1 || o.ODEHidden < 1 {
		return fmt.Errorf("am: odernn sizes must be ≥ 1: decoder-layers %d ode-state %d ode-hidden %d", o.DecoderLayers, o.ODEState, o.ODEHidden)
	}
	if err := o.ODE.Validate(); err != nil {
		return err
	}
	if o.ODE.Method != ode.Euler {
		return fmt.Errorf("am: odernn solves its ODE with fixed Euler steps only (--ode-solver=%s)", o.ODE.Method)
	}
	return nil
}

// concatCols is [a | b] for matrices with equal row counts.
type concatCols struct{ rows, ca, cb int }

func (c *concatCols) Shape(in [][2]int) (int, int, error) {
	if len(in) != 2 || in[0][0] != in[1][0] {
		return 0, 0, fmt.Errorf("am: concat of %v", in)
	}
	c.rows, c.ca, c.cb = in[0][0], in[0][1], in[1][1]
	return c.rows, c.ca + c.cb, nil
}

func (c *concatCols) Forward(out []float64, in [][]float64) {
	w := c.ca + c.cb
	for r := 0; r < c.rows; r++ {
		copy(out[r*w:r*w+c.ca], in[0][r*c.ca:(r+1)*c.ca])
		copy(out[r*w+c.ca:(r+1)*w], in[1][r*c.cb:(r+1)*c.cb])
	}
}

func (c *concatCols) Backward(din [][]float64, dout []float64, _ [][]float64) {
	w := c.ca + c.cb
	for r := 0; r < c.rows; r++ {
		copy(din[0][r*c.ca:(r+1)*c.ca], dout[r*w:r*w+c.ca])
		copy(din[1][r*c.cb:(r+1)*c.cb], dout[r*w+c.ca:(r+1)*w])
	}
}

func (a *odernnArch) newStream(m *Model) (streamer, error) {
	enc, err := a.Enc.NewStream()
	if err != nil {
		return nil, err
	}
	dec, err := a.Dec.NewStream()
	if err != nil {
		return nil, err
	}
	return &odernnStream{o: m.Opts, enc: enc, dec: dec, rnnIn: newAffine32(a.RNNIn), out: newAffine32(m.Out), cell: odernn.NewStream(a.RNNGate, a.ODE, m.Opts.ODE.Steps)}, nil
}

// odernnStream runs the encoder, the ODE-RNN cell on [C | F] = e·A + a,
// the decoder on [e ; z] and the output layer on frames as they come, the
// same float32 operations as the graph outside one (sru.Stream, and the
// ODE-RNN cell for one utterance).
type odernnStream struct {
	o          Options
	enc, dec   *sru.Stream
	rnnIn, out affine32
	cell       *odernn.Stream
	cat        []float32
	logits     []float64
}

func (s *odernnStream) reset() {
	s.enc.Reset()
	s.dec.Reset()
	s.cell.Reset()
}

func (s *odernnStream) close() {}

func (s *odernnStream) forward(x []float32, rows int) ([]float64, error) {
	e, err := s.enc.Forward(x, rows)
	if err != nil {
		return nil, err
	}
	h, st := s.enc.OutDim(), s.o.ODEState
	u := s.rnnIn.apply32(e, rows)
	s.cat = growF32(s.cat, rows*(h+st))
	for r := 0; r < rows; r++ {
		z := s.cell.Step(u[r*2*st : (r+1)*2*st])
		copy(s.cat[r*(h+st):], e[r*h:(r+1)*h])
		copy(s.cat[r*(h+st)+h:(r+1)*(h+st)], z)
	}
	d, err := s.dec.Forward(s.cat[:rows*(h+st)], rows)
	if err != nil {
		return nil, err
	}
	s.logits = growF64(s.logits, rows*s.o.NumPdfs)
	s.out.apply(d, rows, s.logits)
	return s.logits, nil
}
