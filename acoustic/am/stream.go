package am

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
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
	kind  streamer
	delay int       // target delay
	seen  int       // input frames accepted this utterance
	last  []float32 // the last input frame (for Finish with a delay)
}

// streamer is a model kind's incremental forward pass (arch.newStream).
type streamer interface {
	// forward returns the logits (rows × NumPdfs, valid until the next
	// call) of the next rows input frames.
	forward(x []float32, rows int) ([]float64, error)
	reset()
	close()
}

// NewStream returns an incremental forward pass of m. The parameters are
// read now; later changes to m are not seen.
func (m *Model) NewStream() (*Stream, error) {
	k, err := m.arch.newStream(m)
	if err != nil {
		return nil, err
	}
	return &Stream{m: m, kind: k, delay: m.Opts.TargetDelay}, nil
}

// Reset starts the next utterance.
func (s *Stream) Reset() {
	s.kind.reset()
	s.seen = 0
	s.last = s.last[:0]
}

// Close releases the graphs.
func (s *Stream) Close() { s.kind.close() }

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
	logits, err := s.kind.forward(feats, rows)
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
	logits, err := s.kind.forward(pad, s.delay)
	if err != nil {
		return nil, 0, err
	}
	p := s.m.Opts.NumPdfs
	return logits[(s.delay-n)*p:], n, nil
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

// compileTail compiles net, whose input values are in and whose output is
// logits, as a tail of rows frames.
func compileTail(net *nn.Net, rows int, in []float64, logits *autodiff.Node) (*tail, error) {
	if err := net.Err(); err != nil {
		return nil, err
	}
	t := &tail{rows: rows, in: in, logits: logits}
	var err error
	if t.machine, err = net.Compile(logits, nil); err != nil {
		return nil, err
	}
	return t, nil
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

// tails are a kind's tail graphs by row count, built on first use.
type tails struct {
	p      int
	build  func(rows int) (*tail, error)
	graphs map[int]*tail
	logits []float64
}

func newTails(numPdfs int, build func(rows int) (*tail, error)) *tails {
	return &tails{p: numPdfs, build: build, graphs: map[int]*tail{}}
}

func (ts *tails) close() {
	for _, t := range ts.graphs {
		t.machine.Close()
	}
	ts.graphs = map[int]*tail{}
}

// run runs the tail graphs on rows frames of in (rows × the tail's input
// width), at most tailMax frames a run, and returns their logits.
func (ts *tails) run(in []float32, rows int) ([]float64, error) {
	p := ts.p
	ts.logits = growF64(ts.logits, rows*p)
	w := len(in) / rows
	for r0 := 0; r0 < rows; r0 += tailMax {
		k := min(tailMax, rows-r0)
		n := (k + tailQuantum - 1) / tailQuantum * tailQuantum
		t, ok := ts.graphs[n]
		if !ok {
			var err error
			if t, err = ts.build(n); err != nil {
				return nil, err
			}
			ts.graphs[n] = t
		}
		for i, v := range in[r0*w : (r0+k)*w] {
			t.in[i] = float64(v)
		}
		clear(t.in[k*w:])
		if err := t.machine.Run(); err != nil {
			return nil, err
		}
		copy(ts.logits[r0*p:(r0+k)*p], autodiff.Value(t.logits)[:k*p])
	}
	return ts.logits, nil
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
// target delay, plus for --head-variant=lookahead its bound L (the most
// frames it reads ahead; per frame it reads ⌈min(t̃, L)⌉, LookaheadStats);
// −1 (the whole utterance) for a bidirectional SRU. The STRODE head's
// Gaussian prior reads x_{t+1} in training only, so it adds nothing.
func Lookahead(o Options, p Pipeline) int {
	if readsAhead(o) {
		return -1
	}
	return p.SpliceRight + o.TargetDelay + headLookahead(o)
}

// headLookahead is the look-ahead head's bound L (0 for other models).
func headLookahead(o Options) int {
	if o.Kind == KindSTRODE && o.HeadVariant == HeadLookahead {
		return o.MaxLookahead
	}
	return 0
}

// CheckCausal refuses a model that looks ahead: bidirectional, right
// splicing context, a target delay or the look-ahead head. A causal
// model's output for frame t depends on frames ≤ t only, so online decoding
// can emit it as soon as frame t's features exist.
func CheckCausal(o Options, p Pipeline) error {
	implicit, explicit := lookaheadReasons(o, p)
	return causalError(append(implicit, explicit...))
}

// CheckCausalDelayed is CheckCausal less the look-ahead a model asks for
// by name and in a bounded number of frames, --target-delay and
// --head-variant=lookahead: what `strode train --causal` refuses. A causal
// encoder with one of them is the latency–WER trade-off of the latency
// curve (`strode latency-curve`), not an accident of defaults
// (--bidirectional=true, a right splicing context).
func CheckCausalDelayed(o Options, p Pipeline) error {
	implicit, _ := lookaheadReasons(o, p)
	return causalError(implicit)
}

func causalError(why []string) error {
	if len(why) > 0 {
		return fmt.Errorf("am: not a causal model: %v", why)
	}
	return nil
}

// lookaheadReasons lists the options by which o and p look ahead: those
// that read the whole utterance or splice the right context, and those
// that ask for a bounded look-ahead explicitly.
func lookaheadReasons(o Options, p Pipeline) (implicit, explicit []string) {
	if readsAhead(o) {
		implicit = append(implicit, "--bidirectional=true (the reverse direction starts at the utterance's end)")
	}
	if p.SpliceRight > 0 {
		implicit = append(implicit, fmt.Sprintf("--right-context=%d", p.SpliceRight))
	}
	if o.TargetDelay > 0 {
		explicit = append(explicit, fmt.Sprintf("--target-delay=%d", o.TargetDelay))
	}
	if l := headLookahead(o); l > 0 {
		explicit = append(explicit, fmt.Sprintf("--head-variant=lookahead (up to --max-lookahead=%d frames)", l))
	}
	return implicit, explicit
}

// readsAhead tells whether o's kind reads the whole utterance (a
// bidirectional SRU); false for an unknown kind, which Validate refuses.
func readsAhead(o Options) bool {
	a, err := archOf(o)
	return err == nil && a.readsAhead(o)
}
