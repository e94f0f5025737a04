package online

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/decoder/search"
	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/kaldiio"
)

// Options are online2-wav-nnet3-latgen-faster's own options.
type Options struct {
	ChunkLength    float64 // --chunk-length: seconds of audio per chunk; <= 0: the whole utterance at once
	Online         bool    // --online=false: the whole utterance at once (Kaldi: also no online iVectors)
	DoEndpointing  bool    // --do-endpointing
	PartialResults bool    // --partial-results: print "utt: words" to stderr when the best path's words change
	Endpoint       EndpointConfig
}

// DefaultOptions are Kaldi's defaults (0.18 s chunks, online, no
// endpointing), partial results on.
func DefaultOptions() Options {
	return Options{ChunkLength: 0.18, Online: true, PartialResults: true, Endpoint: DefaultEndpointConfig()}
}

// Register adds the options with Kaldi's names and help texts.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.ChunkLength, "chunk-length", o.ChunkLength, "Length of chunk size in seconds, that we process.  Set to <= 0 to use all input in one chunk.")
	fs.BoolVar(&o.Online, "online", o.Online, "You can set this to false to have all the data for each utterance used at once; the same as --chunk-length=-1 (Kaldi: also no online iVector estimation). The features, online CMVN included, and the model are causal either way, so the lattice is the same.")
	fs.BoolVar(&o.DoEndpointing, "do-endpointing", o.DoEndpointing, "If true, apply endpoint detection")
	fs.BoolVar(&o.PartialResults, "partial-results", o.PartialResults, "Print partial results (\"utt-id: words\") to stderr whenever the best path's words change, with --word-symbol-table")
	o.Endpoint.Register(fs)
}

// Recognizer is online2-wav-nnet3-latgen-faster's loop around a Decoder:
// audio in chunks into a FeaturePipeline, the decoder advanced after every
// chunk, optional endpointing, partial results, the final lattice; the
// speaker's CMVN state carried from utterance to utterance.
type Recognizer struct {
	Model    *Model
	Features *FeatureInfo
	Opts     Options
	Words    *fst.SymbolTable                                 // for the hypotheses on stderr (nil: none printed)
	Lattices func(utt string, c lattice.CompactLattice) error // where lattices go
	Stderr   io.Writer                                        // hypotheses
	Log      func(string, ...any)                             // Kaldi's LOG lines (nil: none)
	Warn     func(string, ...any)                             // WARNING lines (nil: none)

	Timing          TimingStats
	NumDone, NumErr int
	TotalLike       float64
	TotalFrames     int64
	dec             *Decoder
	silence         map[int32]bool
	partialPrinted  string
}

// Init checks the model and the endpointing options and makes the decoder.
func (r *Recognizer) Init() error {
	if err := r.Model.Check(); err != nil {
		return err
	}
	if r.Opts.DoEndpointing {
		var err error
		if r.silence, err = r.Opts.Endpoint.SilenceSet(r.Model.TM); err != nil {
			return err
		}
	}
	if r.Features.Dim() != r.Model.AM.Model.Opts.InputDim {
		return fmt.Errorf("online: the feature pipeline gives dimension %d, the model takes %d", r.Features.Dim(), r.Model.AM.Model.Opts.InputDim)
	}
	var err error
	r.dec, err = r.Model.NewDecoder()
	return err
}

// Close releases the decoder.
func (r *Recognizer) Close() {
	if r.dec != nil {
		r.dec.Close()
	}
}

func (r *Recognizer) log(format string, a ...any) {
	if r.Log != nil {
		r.Log(format, a...)
	}
}

func (r *Recognizer) warn(format string, a ...any) {
	if r.Warn != nil {
		r.Warn(format, a...)
	}
}

// chunkSamples is Kaldi's chunk length in samples (max int: one chunk).
func (r *Recognizer) chunkSamples(sampFreq float64) int {
	if !r.Opts.Online || r.Opts.ChunkLength <= 0 {
		return int(^uint(0) >> 1)
	}
	return max(1, int(sampFreq*r.Opts.ChunkLength))
}

// utterance is one utterance being decoded.
type utterance struct {
	key     string
	pipe    *FeaturePipeline
	timer   *Timer
	samples int
	compute time.Duration
	ended   bool // an endpoint was detected
}

func (r *Recognizer) begin(key string, st *features.OnlineCmvnState) (*utterance, error) {
	p, err := r.Features.NewFeaturePipeline(key, st)
	if err != nil {
		return nil, err
	}
	r.dec.InitDecoding()
	r.partialPrinted = ""
	return &utterance{key: key, pipe: p, timer: NewTimer(key)}, nil
}

// feed is one chunk: accept it (and the end of the input with last),
// advance the decoder, print a changed partial result, check the
// endpoint.
func (r *Recognizer) feed(u *utterance, samples []float32, sampFreq float64, last bool) error {
	start := time.Now()
	if err := u.pipe.AcceptWaveform(sampFreq, samples); err != nil {
		return fmt.Errorf("utterance %s: %w", u.key, err)
	}
	u.samples += len(samples)
	u.timer.WaitUntil(float64(u.samples) / sampFreq)
	if last {
		if err := u.pipe.InputFinished(); err != nil {
			return fmt.Errorf("utterance %s: %w", u.key, err)
		}
	}
	if err := r.dec.AdvanceDecoding(u.pipe); err != nil {
		return fmt.Errorf("utterance %s: %w", u.key, err)
	}
	if r.Opts.PartialResults && r.Words != nil && !last {
		if _, words, err := r.dec.PartialResult(); err == nil {
			r.printPartial(u.key, words)
		}
	}
	if r.Opts.DoEndpointing && !last {
		ended, err := r.dec.EndpointDetected(r.Opts.Endpoint, r.silence, r.Features.FrameShift())
		if err != nil {
			return fmt.Errorf("utterance %s: %w", u.key, err)
		}
		u.ended = ended
	}
	d := time.Since(start)
	u.compute += d
	r.Timing.ChunkLatencies = append(r.Timing.ChunkLatencies, d.Seconds())
	return nil
}

func (r *Recognizer) printPartial(utt string, words []int32) {
	s, err := r.wordString(words)
	if err != nil || s == r.partialPrinted {
		return
	}
	r.partialPrinted = s
	fmt.Fprintf(r.Stderr, "%s: %s\n", utt, strings.TrimSpace(s))
}

func (r *Recognizer) wordString(words []int32) (string, error) {
	var b strings.Builder
	for _, w := range words {
		sym, ok := r.Words.Symbol(int64(w))
		if !ok {
			return "", fmt.Errorf("Word-id %d not in symbol table.", w)
		}
		b.WriteString(sym + " ")
	}
	return b.String(), nil
}

// end finalizes the utterance, prints and writes its result, and returns
// the speaker's CMVN state for the next utterance.
func (r *Recognizer) end(u *utterance) (*features.OnlineCmvnState, error) {
	start := time.Now()
	var err error
	if u.ended {
		err = r.dec.FinalizeAt()
	} else {
		err = r.dec.FinalizeDecoding(u.pipe)
	}
	st := u.pipe.CmvnState()
	var res *search.Result
	switch {
	case errors.Is(err, search.ErrNoTokens):
		r.warn("Empty lattice.")
		res = &search.Result{Compact: &lattice.CompactLattice{Start: lattice.NoState}}
	case err != nil:
		return st, fmt.Errorf("utterance %s: %w", u.key, err)
	default:
		if res, err = r.dec.Result(); err != nil {
			return st, fmt.Errorf("utterance %s: %w", u.key, err)
		}
		if res.Partial {
			r.warn("utterance %s: no final state reached: the lattice has no final costs", u.key)
		}
	}
	u.compute += time.Since(start)
	r.Timing.Add(u.timer, u.compute.Seconds())
	if n := len(res.Alignment); n > 0 {
		r.TotalFrames += int64(n)
		r.TotalLike += res.LogLike()
	}
	if r.Words != nil {
		s, err := r.wordString(res.Words)
		if err != nil {
			return st, err
		}
		fmt.Fprintf(r.Stderr, "%s %s\n", u.key, s)
	}
	if r.Lattices != nil {
		if err := r.Lattices(u.key, *res.Compact); err != nil {
			return st, err
		}
	}
	r.log("Decoded utterance %s", u.key)
	r.NumDone++
	return st, nil
}

// DecodeUtterance decodes one utterance's samples as online2's loop does:
// chunk by chunk, the input finished with the last chunk, stopping at an
// endpoint (the rest of the audio is then not decoded, as in Kaldi). st is
// the speaker's CMVN state (nil: a new speaker); the state after the
// utterance is returned.
func (r *Recognizer) DecodeUtterance(key string, samples []float32, sampFreq float64, st *features.OnlineCmvnState) (*features.OnlineCmvnState, error) {
	u, err := r.begin(key, st)
	if err != nil {
		return st, err
	}
	chunk := r.chunkSamples(sampFreq)
	for off := 0; ; {
		n := min(chunk, len(samples)-off)
		last := off+n == len(samples)
		if err := r.feed(u, samples[off:off+n], sampFreq, last); err != nil {
			return st, err
		}
		off += n
		if last || u.ended {
			break
		}
	}
	return r.end(u)
}

// DecodeTables is online2-wav-nnet3-latgen-faster over tables: for every
// speaker of spk2utt, its utterances from the wav table in order, the CMVN
// state carried from one to the next. A missing wave is a warning and an
// error count, as in Kaldi.
func (r *Recognizer) DecodeTables(spk2utt, wav string, kopts ...kaldiio.Option) error {
	sr, err := kaldiio.OpenSequentialReader(spk2utt, kaldiio.TokenVectorCodec, kopts...)
	if err != nil {
		return err
	}
	defer sr.Close()
	wr, err := kaldiio.OpenRandomAccessReader(wav, features.WaveCodec, kopts...)
	if err != nil {
		return err
	}
	defer wr.Close()
	for sr.Next() {
		var st *features.OnlineCmvnState
		for _, utt := range sr.Value() {
			w, err := wr.Value(utt)
			if errors.Is(err, kaldiio.ErrNotFound) {
				r.warn("Did not find audio for utterance %s", utt)
				r.NumErr++
				continue
			}
			if err != nil {
				return err
			}
			data, warning, err := w.Channel(-1)
			if err != nil {
				return fmt.Errorf("utterance %s: %w", utt, err)
			}
			if warning != "" {
				r.warn("utterance %s: %s", utt, warning)
			}
			if st, err = r.DecodeUtterance(utt, data, w.SampFreq, st); err != nil {
				return err
			}
		}
	}
	return sr.Err()
}

// DecodeStream decodes live audio from ws as it arrives: chunks of
// --chunk-length, partial results as they change, and the final result when
// the stream ends. With endpointing, an endpoint ends the utterance and the
// stream goes on as the next one: the utterances are named utt-0001,
// utt-0002, … (one speaker: the CMVN state carries over). Without it the
// whole stream is utterance utt.
func (r *Recognizer) DecodeStream(ws *features.WaveStream, utt string) error {
	for _, w := range ws.Warnings {
		r.warn("%s", w)
	}
	chunk := r.chunkSamples(ws.SampFreq)
	if chunk > 1<<24 {
		chunk = 0 // --online=false: read to the end, then decode
	}
	var st *features.OnlineCmvnState
	var buf []float32
	eof := false
	for seg := 1; !eof; seg++ {
		key := utt
		if r.Opts.DoEndpointing {
			key = fmt.Sprintf("%s-%04d", utt, seg)
		}
		u, err := r.begin(key, st)
		if err != nil {
			return err
		}
		for {
			buf, err = r.readChunk(ws, buf[:0], chunk)
			eof = errors.Is(err, io.EOF)
			if err != nil && !eof {
				// Decode what arrived, then report the broken stream.
				if ferr := r.feed(u, buf, ws.SampFreq, true); ferr == nil {
					r.end(u)
				}
				return err
			}
			if err := r.feed(u, buf, ws.SampFreq, eof); err != nil {
				return err
			}
			if eof || u.ended {
				break
			}
		}
		if st, err = r.end(u); err != nil {
			return err
		}
	}
	for _, w := range ws.Warnings {
		r.warn("%s", w)
	}
	return nil
}

// readChunk reads n samples (all of the stream when n is 0).
func (r *Recognizer) readChunk(ws *features.WaveStream, dst []float32, n int) ([]float32, error) {
	if n > 0 {
		return ws.Read(dst, n)
	}
	for {
		var err error
		if dst, err = ws.Read(dst, 1<<16); err != nil {
			return dst, err
		}
	}
}

// Summary is online2's closing LOG lines: timing, counts, likelihood.
func (r *Recognizer) Summary() []string {
	lines := r.Timing.Lines(r.Opts.Online)
	lines = append(lines, fmt.Sprintf("Decoded %d utterances, %d with errors.", r.NumDone, r.NumErr))
	if r.TotalFrames > 0 {
		lines = append(lines, fmt.Sprintf("Overall likelihood per frame was %g per frame over %d frames.", r.TotalLike/float64(r.TotalFrames), r.TotalFrames))
	}
	return lines
}
