package am

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/internal/gemm"
)

// Stream is the incremental forward pass of a causal model, for online
// decoding: Accept takes an utterance's next frames (after the feature
// pipeline) as they arrive and returns the logits of the frames that are
// now final; Finish ends the utterance. The recurrent state — every SRU
// layer's cell, and odernn's ODE-RNN state and decoder — is carried from
// call to call, so any split of an utterance gives Forwarder's
// whole-utterance logits bit for bit (TestStreamMatchesForwarder): sru and
// odernn run the same float32 operations outside a graph (sru.Stream, and
// the ODE-RNN cell for one utterance here); strode and dnn run their
// per-frame layers as the same graph nodes on fewer rows, none of whose
// products sums across rows.
//
// With a target delay of D frames, frame t's output comes with frame t+D's
// input, and Finish gives the last D frames by repeating the last input
// frame, as Forwarder does. Bidirectional models are refused
// (sru.ErrBidirectional). A Stream is not safe for concurrent use; Reset
// starts the next utterance.
type Stream struct {
	m     *Model
	enc   *sru.Stream // nil for dnn
	dec   *sru.Stream // odernn
	cell  *odeRNNStream
	out   affine32 // the output layer (sru, odernn)
	rnnIn affine32 // odernn's input affine
	tails map[int]*tail

	delay int       // target delay
	seen  int       // input frames accepted this utterance
	last  []float32 // the last input frame (for Finish with a delay)

	e32, cat []float32
	logits   []float64
}

// tail is a graph for the per-frame layers that follow the encoder (strode:
// the output layer and the STRODE head; dnn: the whole network), for up to
// rows frames: the layers Build builds, on an input node instead of the
// encoder's output, so their values are Forwarder's.
type tail struct {
	rows    int
	in      []float64
	logits  *autodiff.Node
	machine *autodiff.Machine
}

// Tail graphs are built for row counts rounded up to tailQuantum, and run
// on at most tailMax rows at a time, so that chunks of any length (a whole
// utterance with --online=false) share at most tailMax/tailQuantum graphs.
// The layers are per frame, so neither the zero rows of the padding nor the
// split change anything.
const (
	tailQuantum = 8
	tailMax     = 64
)

// NewStream returns an incremental forward pass of m. The parameters are
// read now; later changes to m are not seen.
func (m *Model) NewStream() (*Stream, error) {
	o := m.Opts
	s := &Stream{m: m, tails: map[int]*tail{}, delay: o.TargetDelay}
	var err error
	if o.Kind != KindDNN {
		if s.enc, err = m.Enc.NewStream(); err != nil {
			return nil, err
		}
	}
	switch o.Kind {
	case KindSRU:
		s.out = newAffine32(m.Out)
	case KindODERNN:
		if s.dec, err = m.Dec.NewStream(); err != nil {
			return nil, err
		}
		s.rnnIn = newAffine32(m.RNNIn)
		s.out = newAffine32(m.Out)
		s.cell = newODERNNStream(m)
	}
	return s, nil
}

// Reset starts the next utterance.
func (s *Stream) Reset() {
	if s.enc != nil {
		s.enc.Reset()
	}
	if s.dec != nil {
		s.dec.Reset()
		s.cell.reset()
	}
	s.seen = 0
	s.last = s.last[:0]
}

// Close releases the graphs.
func (s *Stream) Close() {
	for _, t := range s.tails {
		t.machine.Close()
	}
	s.tails = map[int]*tail{}
}

// Accept takes the next rows frames (rows × InputDim) and returns the
// logits (n × NumPdfs, valid until the next call) of the n frames that are
// now final: all of them, less the first TargetDelay of the utterance.
func (s *Stream) Accept(feats []float32, rows int) ([]float64, int, error) {
	d := s.m.Opts.InputDim
	if len(feats) != rows*d {
		return nil, 0, fmt.Errorf("am: stream: %d values for %d frames of dimension %d", len(feats), rows, d)
	}
	if rows == 0 {
		return nil, 0, nil
	}
	logits, err := s.forward(feats, rows)
	if err != nil {
		return nil, 0, err
	}
	s.last = append(s.last[:0], feats[(rows-1)*d:]...)
	skip := min(rows, max(0, s.delay-s.seen))
	s.seen += rows
	p := s.m.Opts.NumPdfs
	return logits[skip*p:], rows - skip, nil
}

// Finish ends the utterance: with a target delay of D it returns the logits
// of the last D frames (fewer if the utterance had fewer), computed from D
// copies of the last frame; otherwise nothing.
func (s *Stream) Finish() ([]float64, int, error) {
	n := min(s.delay, s.seen)
	if n == 0 {
		return nil, 0, nil
	}
	pad := make([]float32, 0, s.delay*len(s.last))
	for range s.delay {
		pad = append(pad, s.last...)
	}
	logits, err := s.forward(pad, s.delay)
	if err != nil {
		return nil, 0, err
	}
	p := s.m.Opts.NumPdfs
	return logits[(s.delay-n)*p:], n, nil
}

// forward runs the model on the next rows input frames.
func (s *Stream) forward(x []float32, rows int) ([]float64, error) {
	o := s.m.Opts
	p := o.NumPdfs
	s.logits = growF64(s.logits, rows*p)
	switch o.Kind {
	case KindDNN:
		return s.runTail(x, rows)
	case KindSTRODE:
		e, err := s.enc.Forward(x, rows)
		if err != nil {
			return nil, err
		}
		return s.runTail(e, rows)
	case KindSRU:
		e, err := s.enc.Forward(x, rows)
		if err != nil {
			return nil, err
		}
		s.out.apply(e, rows, s.logits)
		return s.logits, nil
	}
	// odernn: encoder, ODE-RNN cell on [C | F] = e·A + a, decoder on [e ; z].
	e, err := s.enc.Forward(x, rows)
	if err != nil {
		return nil, err
	}
	h, st := s.enc.OutDim(), o.ODEState
	u := s.rnnIn.apply32(e, rows)
	s.cat = growF32(s.cat, rows*(h+st))
	for r := 0; r < rows; r++ {
		z := s.cell.step(u[r*2*st : (r+1)*2*st])
		copy(s.cat[r*(h+st):], e[r*h:(r+1)*h])
		copy(s.cat[r*(h+st)+h:(r+1)*(h+st)], z)
	}
	dd, err := s.dec.Forward(s.cat[:rows*(h+st)], rows)
	if err != nil {
		return nil, err
	}
	s.out.apply(dd, rows, s.logits)
	return s.logits, nil
}

// runTail runs the tail graphs on rows frames of in (rows × the tail's
// input width), at most tailMax frames a run, and returns their logits.
func (s *Stream) runTail(in []float32, rows int) ([]float64, error) {
	p := s.m.Opts.NumPdfs
	w := len(in) / rows
	for r0 := 0; r0 < rows; r0 += tailMax {
		k := min(tailMax, rows-r0)
		n := (k + tailQuantum - 1) / tailQuantum * tailQuantum
		t, ok := s.tails[n]
		if !ok {
			var err error
			if t, err = s.m.buildTail(n); err != nil {
				return nil, err
			}
			s.tails[n] = t
		}
		for i, v := range in[r0*w : (r0+k)*w] {
			t.in[i] = float64(v)
		}
		clear(t.in[k*w:])
		if err := t.machine.Run(); err != nil {
			return nil, err
		}
		copy(s.logits[r0*p:(r0+k)*p], autodiff.Value(t.logits)[:k*p])
	}
	return s.logits, nil
}

// buildTail builds the per-frame layers after the encoder for rows frames:
// Build's output layer and STRODE head (inference) on the encoder output
// (strode), or Build's whole dnn on the features.
func (m *Model) buildTail(rows int) (*tail, error) {
	o := m.Opts
	net := nn.NewNet()
	t := &tail{rows: rows}
	var e *autodiff.Node
	var err error
	switch o.Kind {
	case KindDNN:
		var x *autodiff.Node
		x, t.in = net.Input("x", rows, o.InputDim)
		if e, err = m.dnnHidden(net, x); err != nil {
			return nil, err
		}
	case KindSTRODE:
		e, t.in = net.Input("e", rows, o.SRU.OutDim())
	default:
		return nil, fmt.Errorf("am: no tail graph for --model=%s", o.Kind)
	}
	var logits *autodiff.Node
	if o.Kind == KindSTRODE {
		h, err := m.head(net, e, nil, rows) // as Build (batch.go) in Infer mode
		if err != nil {
			return nil, err
		}
		if logits, err = sru.AffineSum(net, h.outX, h.outW, m.Out.B); err != nil {
			return nil, err
		}
	} else if logits, err = sru.Affine(net, e, m.Out.W, m.Out.B); err != nil {
		return nil, err
	}
	if err := net.Err(); err != nil {
		return nil, err
	}
	t.logits = logits
	if t.machine, err = net.Compile(logits, nil); err != nil {
		return nil, err
	}
	return t, nil
}

// affine32 is sru.Affine's float32 product outside a graph: y = b, then
// y += x·W through internal/gemm, with W and b rounded to float32 once.
type affine32 struct {
	in, out int
	w, b    []float32
	y       []float32
}

func newAffine32(l *nn.Linear) affine32 {
	a := affine32{in: l.W.Rows, out: l.W.Cols, w: make([]float32, len(l.W.Data)), b: make([]float32, len(l.B.Data))}
	for i, v := range l.W.Data {
		a.w[i] = float32(v)
	}
	for i, v := range l.B.Data {
		a.b[i] = float32(v)
	}
	return a
}

// apply32 returns x·W + b (rows × out) in float32, valid until the next call.
func (a *affine32) apply32(x []float32, rows int) []float32 {
	a.y = growF32(a.y, rows*a.out)
	for r := 0; r < rows; r++ {
		copy(a.y[r*a.out:(r+1)*a.out], a.b)
	}
	gemm.Sgemm(false, false, rows, a.out, a.in, 1, x, a.in, a.w, a.out, 1, a.y, a.out)
	return a.y
}

// apply writes x·W + b into dst (rows × out) in float64.
func (a *affine32) apply(x []float32, rows int, dst []float64) {
	for i, v := range a.apply32(x, rows) {
		dst[i] = float64(v)
	}
}

// odeRNNStream is the ODE-RNN cell (odernn_cell.go) for one utterance whose
// frames come one at a time: its Forward in float32 with B = 1, the state
// z of the previous frame carried.
type odeRNNStream struct {
	s, h, k                int
	v                      []float32
	w0, b0, w1, b1, w2, b2 []float32
	p, z, u0, u1, f        []float32
	started                bool
}

func newODERNNStream(m *Model) *odeRNNStream {
	o := m.Opts
	c := &odeRNNStream{s: o.ODEState, h: o.ODEHidden, k: o.ODE.Steps}
	f32 := func(v []float64) []float32 {
		out := make([]float32, len(v))
		for i, x := range v {
			out[i] = float32(x)
		}
		return out
	}
	c.v = f32(m.RNNGate.Data)
	c.w0, c.b0 = f32(m.ODE[0].W.Data), f32(m.ODE[0].B.Data)
	c.w1, c.b1 = f32(m.ODE[1].W.Data), f32(m.ODE[1].B.Data)
	c.w2, c.b2 = f32(m.ODE[2].W.Data), f32(m.ODE[2].B.Data)
	c.p, c.z, c.f = make([]float32, c.s), make([]float32, c.s), make([]float32, c.s)
	c.u0, c.u1 = make([]float32, c.h), make([]float32, c.h)
	return c
}

func (c *odeRNNStream) reset() {
	clear(c.z)
	c.started = false
}

// dense is odeRNNCell.dense for one row: out = x·w + b, tanh'd with act.
func (c *odeRNNStream) dense(out, x, w, b []float32, k, n int, act bool) {
	copy(out, b)
	gemm.Sgemm(false, false, 1, n, k, 1, x, k, w, n, 1, out, n)
	if act {
		for i, v := range out {
			out[i] = float32(math.Tanh(float64(v)))
		}
	}
}

// step takes one frame's [C | F] (2S) and returns z (S, valid until the
// next step): p = the previous z evolved by K Euler steps of f_o (0 at the
// first frame), g = σ(F + v⊙p), z = g⊙p + (1−g)⊙C.
func (c *odeRNNStream) step(u []float32) []float32 {
	S, H := c.s, c.h
	p := c.p
	if !c.started {
		clear(p)
		c.started = true
	} else {
		copy(p, c.z)
		step := 1 / float32(c.k)
		for range c.k {
			c.dense(c.u0, p, c.w0, c.b0, S, H, true)
			c.dense(c.u1, c.u0, c.w1, c.b1, H, H, true)
			c.dense(c.f, c.u1, c.w2, c.b2, H, S, false)
			for i, v := range c.f {
				p[i] += step * v
			}
		}
	}
	cand, fin := u[:S], u[S:2*S]
	for j := range c.z {
		gj := float32(1 / (1 + math.Exp(-float64(fin[j]+c.v[j]*p[j]))))
		c.z[j] = gj*p[j] + (1-gj)*cand[j]
	}
	return c.z
}

func growF32(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

func growF64(s []float64, n int) []float64 {
	if cap(s) < n {
		return make([]float64, n)
	}
	return s[:n]
}

// Lookahead is how many input frames after frame t the model's output for
// frame t depends on: the pipeline's right splicing context plus the
// target delay; −1 (the whole utterance) for a bidirectional SRU. The
// STRODE head's Gaussian prior reads x_{t+1} in training only, so it adds
// nothing.
func Lookahead(o Options, p Pipeline) int {
	if o.Kind != KindDNN && o.SRU.Bidirectional {
		return -1
	}
	return p.SpliceRight + o.TargetDelay
}

// CheckCausal refuses a model that looks ahead: bidirectional, right
// splicing context or a target delay. A causal model's output for frame t
// depends on frames ≤ t only, so online decoding can emit it as soon as
// frame t's features exist.
func CheckCausal(o Options, p Pipeline) error {
	var why []string
	if o.Kind != KindDNN && o.SRU.Bidirectional {
		why = append(why, "--bidirectional=true (the reverse direction starts at the utterance's end)")
	}
	if p.SpliceRight > 0 {
		why = append(why, fmt.Sprintf("--right-context=%d", p.SpliceRight))
	}
	if o.TargetDelay > 0 {
		why = append(why, fmt.Sprintf("--target-delay=%d", o.TargetDelay))
	}
	if len(why) > 0 {
		return fmt.Errorf("am: not a causal model: %v", why)
	}
	return nil
}
