package online

import (
	"errors"
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/priors"
	"github.com/strode-asr/strode/decoder/search"
)

// Model is what every utterance's decoder shares (Kaldi's
// DecodableNnetSimpleLoopedInfo and decoding graph): the acoustic model,
// the transition model that maps transition-ids to its pdfs, the graph, the
// priors that turn its outputs into pseudo log-likelihoods, and the
// decoding options.
type Model struct {
	AM            *am.File
	TM            *hmm.TransitionModel
	Graph         *search.Graph
	Prior         *priors.Prior // nil: none
	Output        am.OutputOptions
	AcousticScale float32
	Search        search.Options
}

// Check refuses a model that cannot decode online or does not fit the
// transition model and graph.
func (m *Model) Check() error {
	o := m.AM.Model.Opts
	if err := am.CheckCausal(o, m.AM.Pipeline); err != nil {
		if am.Lookahead(o, m.AM.Pipeline) < 0 {
			return fmt.Errorf("online: %w: the model must be unidirectional (train with --causal, or --bidirectional=false)", err)
		}
		// Right context and target delay only delay the outputs.
	}
	if err := m.Output.Validate(); err != nil {
		return err
	}
	if !m.Search.DeterminizeLattice {
		return fmt.Errorf("online: online decoding writes determinized lattices, as Kaldi's online2 does (--determinize-lattice=false option is not supported at the moment, as Kaldi says)")
	}
	if o.NumPdfs != m.TM.NumPdfs() {
		return fmt.Errorf("online: the acoustic model has %d outputs, the transition model %d pdfs: they do not belong together", o.NumPdfs, m.TM.NumPdfs())
	}
	if m.Prior != nil && len(m.Prior.LogPriors) != o.NumPdfs {
		return fmt.Errorf("online: --class-frame-counts has %d counts, the model has %d outputs: %w", len(m.Prior.LogPriors), o.NumPdfs, priors.ErrDimension)
	}
	if int(m.Graph.MaxInputLabel()) > m.TM.NumTransitionIDs() {
		return fmt.Errorf("online: the decoding graph has transition-id %d but the transition model only %d: graph and model do not belong together", m.Graph.MaxInputLabel(), m.TM.NumTransitionIDs())
	}
	return nil
}

// Decoder is Kaldi's SingleUtteranceNnet3Decoder for our models: it takes
// the model's input frames from a FeaturePipeline as they become ready,
// runs the causal model on them (am.Stream, its state carried), turns the
// outputs into scaled pseudo log-likelihoods and advances the lattice
// search. Its frames and lattice are those of the whole-utterance chain
// (forward, then latgen-faster-mapped) on the same features, whatever the
// chunks. A Decoder decodes one utterance at a time and is reused with
// InitDecoding; it is not safe for concurrent use.
type Decoder struct {
	m      *Model
	stream *am.Stream
	search *search.LatticeDecoder
	ll     decodable
	out    []float32
}

// NewDecoder returns a decoder for m.
func (m *Model) NewDecoder() (*Decoder, error) {
	st, err := m.AM.Model.NewStream()
	if err != nil {
		return nil, err
	}
	d := &Decoder{m: m, stream: st, search: search.NewLatticeDecoder(m.Graph, m.Search)}
	d.ll = decodable{tidToPdf: m.TM.TransitionIDToPdfArray(), pdfs: m.AM.Model.Opts.NumPdfs, scale: m.AcousticScale}
	return d, nil
}

// Close releases the model's graphs.
func (d *Decoder) Close() { d.stream.Close() }

// InitDecoding starts an utterance.
func (d *Decoder) InitDecoding() {
	d.stream.Reset()
	d.ll.reset()
	d.search.InitDecoding()
}

// AdvanceDecoding decodes the frames p has ready.
func (d *Decoder) AdvanceDecoding(p *FeaturePipeline) error {
	x, n := p.Take()
	if n > 0 {
		logits, k, err := d.stream.Accept(x, n)
		if err != nil {
			return err
		}
		if err := d.addLogits(logits, k); err != nil {
			return err
		}
	}
	return d.advance()
}

// FinalizeDecoding decodes what is left after p's input has finished (the
// last frames, and those a target delay held back) and ends the
// utterance. It returns search.ErrNoTokens when nothing survived.
func (d *Decoder) FinalizeDecoding(p *FeaturePipeline) error {
	if err := d.AdvanceDecoding(p); err != nil {
		return err
	}
	logits, k, err := d.stream.Finish()
	if err != nil {
		return err
	}
	if err := d.addLogits(logits, k); err != nil {
		return err
	}
	if err := d.advance(); err != nil {
		return err
	}
	if d.search.NumFramesDecoded() == 0 {
		return search.ErrNoTokens
	}
	return d.search.FinalizeDecoding(nil)
}

// FinalizeAt ends the utterance where it is (after an endpoint): no more
// frames are decoded.
func (d *Decoder) FinalizeAt() error {
	if d.search.NumFramesDecoded() == 0 {
		return search.ErrNoTokens
	}
	return d.search.FinalizeDecoding(nil)
}

func (d *Decoder) advance() error {
	if err := d.search.AdvanceDecoding(&d.ll, 0, nil); err != nil {
		return err
	}
	d.ll.trim(d.search.NumFramesDecoded())
	return nil
}

// addLogits turns k frames of logits into pseudo log-likelihoods as forward
// does (the output options, then the priors) and appends them.
func (d *Decoder) addLogits(logits []float64, k int) error {
	if k == 0 {
		return nil
	}
	p := d.ll.pdfs
	d.out = d.m.Output.Apply(logits[:k*p], p, d.out)
	if d.m.Prior != nil {
		if err := d.m.Prior.SubtractRows(d.out, p); err != nil {
			return err
		}
	}
	return d.ll.add(d.out, k)
}

// NumFramesDecoded is the number of frames decoded.
func (d *Decoder) NumFramesDecoded() int { return d.search.NumFramesDecoded() }

// PartialResult is the best path so far (Kaldi's GetBestPath without final
// probabilities): transition-ids and words.
func (d *Decoder) PartialResult() (alignment, words []int32, err error) {
	return d.search.PartialBestPath()
}

// EndpointDetected is Kaldi's EndpointDetected: the rules of c on the
// frames decoded, the trailing silence of the best path and the final
// relative cost.
func (d *Decoder) EndpointDetected(c EndpointConfig, silence map[int32]bool, frameShift float64) (bool, error) {
	n := d.search.NumFramesDecoded()
	if n == 0 {
		return false, nil
	}
	ali, _, err := d.search.PartialBestPath()
	if err != nil {
		if errors.Is(err, search.ErrNoTokens) {
			return false, nil
		}
		return false, err
	}
	sil := TrailingSilence(ali, d.m.TM, silence)
	return c.Detected(n, sil, frameShift, d.search.FinalRelativeCost()), nil
}

// Result is the finalized utterance's best path and lattice (acoustic
// costs unscaled, as the lattice is written), also when no final state was
// reached (Kaldi's online decoders then drop the final costs).
func (d *Decoder) Result() (*search.Result, error) {
	return d.search.FinalResult(d.m.AcousticScale, true)
}

// decodable is the growing matrix of pseudo log-likelihoods: rows are added
// as the model produces them and dropped once decoded (the decoder reads
// each frame once), so a long stream takes bounded memory. It reads them
// as Kaldi's DecodableMatrixScaledMapped.
type decodable struct {
	tidToPdf []int32
	pdfs     int
	scale    float32
	offset   int       // frame index of data's first row
	data     []float32 // rows × pdfs
}

func (dc *decodable) reset() {
	dc.offset = 0
	dc.data = dc.data[:0]
}

func (dc *decodable) NumFrames() int { return dc.offset + len(dc.data)/dc.pdfs }

func (dc *decodable) LogLikes(frame int, dst []float32) {
	row := dc.data[(frame-dc.offset)*dc.pdfs : (frame-dc.offset+1)*dc.pdfs]
	n := min(len(dst), len(dc.tidToPdf))
	for tid := 1; tid < n; tid++ {
		dst[tid] = dc.scale * row[dc.tidToPdf[tid]]
	}
}

// add appends k rows, refusing NaN and +Inf as latgen-faster-mapped does.
func (dc *decodable) add(rows []float32, k int) error {
	rows = rows[:k*dc.pdfs]
	for i, x := range rows {
		if x != x || math.IsInf(float64(x), 1) {
			return fmt.Errorf("%w: %v at frame %d, pdf %d", search.ErrLogLikes, x, dc.NumFrames()+i/dc.pdfs, i%dc.pdfs)
		}
	}
	dc.data = append(dc.data, rows...)
	return nil
}

// trim drops the rows before frame.
func (dc *decodable) trim(frame int) {
	if drop := frame - dc.offset; drop > 0 {
		dc.data = append(dc.data[:0], dc.data[drop*dc.pdfs:]...)
		dc.offset = frame
	}
}
