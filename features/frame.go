package features

import (
	"errors"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
)

// ErrOptions marks option values Kaldi rejects.
var ErrOptions = errors.New("bad feature options")

// FrameExtractionOptions are Kaldi's FrameExtractionOptions: how a waveform is
// cut into frames and windowed. Field comments give the option names.
type FrameExtractionOptions struct {
	SampFreq          float64 // --sample-frequency: waveform data sample frequency (must match the waveform file, if specified there)
	FrameShiftMs      float64 // --frame-shift: frame shift in milliseconds
	FrameLengthMs     float64 // --frame-length: frame length in milliseconds
	Dither            float64 // --dither: dithering constant (0.0 means no dither)
	PreemphCoeff      float64 // --preemphasis-coefficient
	RemoveDCOffset    bool    // --remove-dc-offset: subtract mean from waveform on each frame
	WindowType        string  // --window-type: hamming|hanning|povey|rectangular|sine|blackman
	RoundToPowerOfTwo bool    // --round-to-power-of-two: round window size to power of two by zero-padding the FFT input
	BlackmanCoeff     float64 // --blackman-coeff
	SnipEdges         bool    // --snip-edges: only output frames that fit entirely in the file
	AllowDownsample   bool    // --allow-downsample
	AllowUpsample     bool    // --allow-upsample
	MaxFeatureVectors int     // --max-feature-vectors (online decoding only; kept for option compatibility)

	// DitherSeed seeds the dither noise (--dither-seed, ours; Kaldi draws
	// from an unseeded generator). The noise of an utterance depends only on
	// this seed and the utterance key, never on thread scheduling.
	DitherSeed int64
}

// DefaultFrameExtractionOptions are Kaldi's defaults.
func DefaultFrameExtractionOptions() FrameExtractionOptions {
	return FrameExtractionOptions{
		SampFreq:          16000,
		FrameShiftMs:      10,
		FrameLengthMs:     25,
		Dither:            1,
		PreemphCoeff:      0.97,
		RemoveDCOffset:    true,
		WindowType:        "povey",
		RoundToPowerOfTwo: true,
		BlackmanCoeff:     0.42,
		SnipEdges:         true,
		MaxFeatureVectors: -1,
	}
}

// Register adds the options to fs under Kaldi's names, with the current
// values as defaults.
func (o *FrameExtractionOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.SampFreq, "sample-frequency", o.SampFreq, "Waveform data sample frequency (must match the waveform file, if specified there)")
	fs.Float64Var(&o.FrameLengthMs, "frame-length", o.FrameLengthMs, "Frame length in milliseconds")
	fs.Float64Var(&o.FrameShiftMs, "frame-shift", o.FrameShiftMs, "Frame shift in milliseconds")
	fs.Float64Var(&o.PreemphCoeff, "preemphasis-coefficient", o.PreemphCoeff, "Coefficient for use in signal preemphasis")
	fs.BoolVar(&o.RemoveDCOffset, "remove-dc-offset", o.RemoveDCOffset, "Subtract mean from waveform on each frame")
	fs.Float64Var(&o.Dither, "dither", o.Dither, "Dithering constant (0.0 means no dither). If you turn this off, you should set the --energy-floor option, e.g. to 1.0 or 0.1")
	fs.Int64Var(&o.DitherSeed, "dither-seed", o.DitherSeed, "Seed of the dither noise (with the utterance key; strode only)")
	fs.StringVar(&o.WindowType, "window-type", o.WindowType, "Type of window (\"hamming\"|\"hanning\"|\"povey\"|\"rectangular\"|\"sine\"|\"blackman\")")
	fs.Float64Var(&o.BlackmanCoeff, "blackman-coeff", o.BlackmanCoeff, "Constant coefficient for generalized Blackman window.")
	fs.BoolVar(&o.RoundToPowerOfTwo, "round-to-power-of-two", o.RoundToPowerOfTwo, "If true, round window size to power of two by zero-padding input to FFT.")
	fs.BoolVar(&o.SnipEdges, "snip-edges", o.SnipEdges, "If true, end effects will be handled by outputting only frames that completely fit in the file, and the number of frames depends on the frame-length.  If false, the number of frames depends only on the frame-shift, and we reflect the data at the ends.")
	fs.BoolVar(&o.AllowDownsample, "allow-downsample", o.AllowDownsample, "If true, allow the input waveform to have a higher frequency than the specified --sample-frequency (and we'll downsample).")
	fs.IntVar(&o.MaxFeatureVectors, "max-feature-vectors", o.MaxFeatureVectors, "Memory optimization. If larger than 0, periodically remove feature vectors so that only this number of the latest feature vectors is retained.")
	fs.BoolVar(&o.AllowUpsample, "allow-upsample", o.AllowUpsample, "If true, allow the input waveform to have a lower frequency than the specified --sample-frequency (and we'll upsample).")
}

// WindowShift is the frame shift in samples, truncated as Kaldi does.
func (o *FrameExtractionOptions) WindowShift() int {
	return int(int32(float64(float32(o.SampFreq)) * 0.001 * float64(float32(o.FrameShiftMs))))
}

// WindowSize is the frame length in samples.
func (o *FrameExtractionOptions) WindowSize() int {
	return int(int32(float64(float32(o.SampFreq)) * 0.001 * float64(float32(o.FrameLengthMs))))
}

// PaddedWindowSize is the FFT length: WindowSize, rounded up to a power of two
// with --round-to-power-of-two.
func (o *FrameExtractionOptions) PaddedWindowSize() int {
	n := o.WindowSize()
	if o.RoundToPowerOfTwo {
		return roundUpToPowerOfTwo(n)
	}
	return n
}

func roundUpToPowerOfTwo(n int) int {
	p := 1
	for p < n {
		p <<= 1
	}
	return p
}

// Validate checks what Kaldi checks when it builds a feature computer.
func (o *FrameExtractionOptions) Validate() error {
	if err := finiteOptions(map[string]float64{
		"sample-frequency": o.SampFreq, "frame-length": o.FrameLengthMs, "frame-shift": o.FrameShiftMs,
		"dither": o.Dither, "preemphasis-coefficient": o.PreemphCoeff, "blackman-coeff": o.BlackmanCoeff,
	}); err != nil {
		return err
	}
	if o.SampFreq <= 0 {
		return fmt.Errorf("%w: --sample-frequency=%v must be positive", ErrOptions, o.SampFreq)
	}
	if o.WindowShift() <= 0 || o.WindowSize() <= 0 {
		return fmt.Errorf("%w: frame length %d and shift %d samples must be positive", ErrOptions, o.WindowSize(), o.WindowShift())
	}
	if o.WindowSize() < 2 {
		return fmt.Errorf("%w: frame length of %d samples is too short", ErrOptions, o.WindowSize())
	}
	if o.PaddedWindowSize()%2 != 0 {
		return fmt.Errorf("%w: padded window size %d must be even (use --round-to-power-of-two)", ErrOptions, o.PaddedWindowSize())
	}
	if o.PreemphCoeff < 0 || o.PreemphCoeff > 1 {
		return fmt.Errorf("%w: --preemphasis-coefficient=%v must be in [0, 1]", ErrOptions, o.PreemphCoeff)
	}
	if _, err := windowFunction(o); err != nil {
		return err
	}
	return nil
}

// finiteOptions fails naming the first option (in name order) that is NaN
// or infinite: such a value passes range checks written as comparisons and
// would fill the features with NaN.
func finiteOptions(opts map[string]float64) error {
	names := make([]string, 0, len(opts))
	for n := range opts {
		names = append(names, n)
	}
	slices.Sort(names)
	for _, n := range names {
		if v := opts[n]; math.IsNaN(v) || math.IsInf(v, 0) {
			return fmt.Errorf("%w: --%s=%v must be a finite number", ErrOptions, n, v)
		}
	}
	return nil
}

// FirstSampleOfFrame is Kaldi's FirstSampleOfFrame: with --snip-edges=false
// frames are centred on multiples of the shift (so the first starts before
// sample 0 and the signal is reflected there).
func (o *FrameExtractionOptions) FirstSampleOfFrame(frame int) int {
	shift := o.WindowShift()
	if o.SnipEdges {
		return frame * shift
	}
	return shift*frame + shift/2 - o.WindowSize()/2
}

// NumFrames is Kaldi's NumFrames with flush = true (whole files).
func (o *FrameExtractionOptions) NumFrames(numSamples int) int {
	shift, length := o.WindowShift(), o.WindowSize()
	if o.SnipEdges {
		if numSamples < length {
			return 0
		}
		return 1 + (numSamples-length)/shift
	}
	return (numSamples + shift/2) / shift
}

// windowFunction is Kaldi's FeatureWindowFunction: computed in double, stored
// as float.
func windowFunction(o *FrameExtractionOptions) ([]float32, error) {
	n := o.WindowSize()
	w := make([]float32, n)
	a := 2 * math.Pi / float64(n-1)
	bc := float64(float32(o.BlackmanCoeff))
	for i := range w {
		x := float64(i)
		var v float64
		switch o.WindowType {
		case "hanning":
			v = 0.5 - 0.5*math.Cos(a*x)
		case "sine":
			v = math.Sin(0.5 * a * x)
		case "hamming":
			v = 0.54 - 0.46*math.Cos(a*x)
		case "povey": // like hamming but goes to zero at the edges
			v = math.Pow(0.5-0.5*math.Cos(a*x), 0.85)
		case "rectangular":
			v = 1
		case "blackman":
			v = bc - 0.5*math.Cos(a*x) + (0.5-bc)*math.Cos(2*a*x)
		default:
			return nil, fmt.Errorf("%w: invalid window type %q", ErrOptions, o.WindowType)
		}
		w[i] = float32(v)
	}
	return w, nil
}

// frameExtractor cuts windows out of a waveform: Kaldi's ExtractWindow and
// ProcessWindow with buffers allocated once.
type frameExtractor struct {
	opts     FrameExtractionOptions
	window   []float32 // the window function
	length   int
	padded   int
	preemph  float32
	dither   float32
	rng      *rand.Rand
	pcg      *rand.PCG
	seedBase uint64
}

func newFrameExtractor(o FrameExtractionOptions) (*frameExtractor, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	w, _ := windowFunction(&o)
	pcg := rand.NewPCG(0, 0)
	return &frameExtractor{
		opts:     o,
		window:   w,
		length:   o.WindowSize(),
		padded:   o.PaddedWindowSize(),
		preemph:  float32(o.PreemphCoeff),
		dither:   float32(o.Dither),
		pcg:      pcg,
		rng:      rand.New(pcg),
		seedBase: uint64(o.DitherSeed),
	}, nil
}

// seed restarts the dither noise for one utterance.
func (e *frameExtractor) seed(key string) {
	h := uint64(14695981039346656037) // FNV-1a of the key
	for i := 0; i < len(key); i++ {
		h ^= uint64(key[i])
		h *= 1099511628211
	}
	e.pcg.Seed(e.seedBase, h)
}

// extract fills frame (length PaddedWindowSize) with frame f of wave,
// processed as Kaldi's ProcessWindow: dither, DC removal, raw log-energy
// (returned when wantEnergy), pre-emphasis, window function; the padding is
// zero. It does not allocate.
func (e *frameExtractor) extract(wave []float32, f int, frame []float32, wantEnergy bool) (rawLogEnergy float32) {
	n := e.length
	start := e.opts.FirstSampleOfFrame(f)
	w := frame[:n]
	if start >= 0 && start+n <= len(wave) {
		copy(w, wave[start:start+n])
	} else {
		// Reflect at the ends (only the first and last frames or so with
		// --snip-edges=false): -1 -> 0, -2 -> 1; dim -> dim-1.
		dim := len(wave)
		for s := range w {
			i := s + start
			for i < 0 || i >= dim {
				if i < 0 {
					i = -i - 1
				} else {
					i = 2*dim - 1 - i
				}
			}
			w[s] = wave[i]
		}
	}
	clear(frame[n:])
	if e.dither != 0 {
		for i := range w {
			w[i] += float32(e.rng.NormFloat64()) * e.dither
		}
	}
	var mean float32
	if e.opts.RemoveDCOffset {
		// Kaldi's Sum() is cblas_sdot against a stride-0 one, which
		// OpenBLAS runs as a sequential float loop; the division is in float.
		var sum float32
		for _, v := range w {
			sum += v
		}
		mean = sum / float32(n)
	}
	c := e.preemph
	win := e.window[:n]
	if !wantEnergy && c != 0 {
		// One backward pass doing what Kaldi does in three (DC removal,
		// pre-emphasis, window), with each sample seeing the same float
		// operations: y_i = x_i − mean; (y_i − float(c·y_{i−1}))·win_i.
		// The conversions keep the compiler from fusing into FMA.
		for i := n - 1; i > 0; i-- {
			y := w[i] - mean
			w[i] = float32(y-float32(c*(w[i-1]-mean))) * win[i]
		}
		y := w[0] - mean
		w[0] = float32(y-float32(c*y)) * win[0]
		return 0
	}
	if mean != 0 {
		for i := range w {
			w[i] -= mean
		}
	}
	if wantEnergy {
		rawLogEnergy = logEnergy(w)
	}
	if c != 0 {
		for i := n - 1; i > 0; i-- {
			w[i] -= float32(c * w[i-1])
		}
		w[0] -= float32(c * w[0])
	}
	for i := range w {
		w[i] *= win[i]
	}
	return rawLogEnergy
}

// extractBatch is extract on frames r0, r0+1, … (one per entry of frames,
// at most batchLanes), with the raw log-energies in energies when
// wantEnergy. In the common case (no dither, pre-emphasis, no raw energy,
// frames inside the wave) it reads the wave in place and sums the frames
// for the DC offset in eight interleaved sequential chains, each in Kaldi's
// order, so the latency of one long chain of float additions is hidden.
func (e *frameExtractor) extractBatch(wave []float32, r0 int, frames [][]float32, wantEnergy bool, energies []float32) {
	n := e.length
	k := len(frames)
	first, last := e.opts.FirstSampleOfFrame(r0), e.opts.FirstSampleOfFrame(r0+k-1)
	if e.dither != 0 || wantEnergy || e.preemph == 0 || k > batchLanes || first < 0 || last+n > len(wave) {
		for i, f := range frames {
			energies[i] = e.extract(wave, r0+i, f, wantEnergy)
		}
		return
	}
	var means [batchLanes]float32
	if e.opts.RemoveDCOffset {
		e.frameMeans(wave, r0, k, &means)
	}
	win := e.window[:n]
	for i, f := range frames {
		start := e.opts.FirstSampleOfFrame(r0 + i)
		preemphWindow(f[:n], wave[start:start+n], win, means[i], e.preemph)
		clear(f[n:])
		energies[i] = 0
	}
}

// frameMeans sets means[i] to the mean of frame r0+i, i < k, summed in
// float in sample order as Kaldi's Sum() (see extract); frames past k
// repeat frame r0 so all eight chains can run.
func (e *frameExtractor) frameMeans(wave []float32, r0, k int, means *[batchLanes]float32) {
	n := e.length
	var st [batchLanes]int
	for i := range st {
		if i < k {
			st[i] = e.opts.FirstSampleOfFrame(r0 + i)
		} else {
			st[i] = st[0]
		}
	}
	x0 := wave[st[0] : st[0]+n]
	x1 := wave[st[1] : st[1]+n][:len(x0)]
	x2 := wave[st[2] : st[2]+n][:len(x0)]
	x3 := wave[st[3] : st[3]+n][:len(x0)]
	x4 := wave[st[4] : st[4]+n][:len(x0)]
	x5 := wave[st[5] : st[5]+n][:len(x0)]
	x6 := wave[st[6] : st[6]+n][:len(x0)]
	x7 := wave[st[7] : st[7]+n][:len(x0)]
	var s0, s1, s2, s3, s4, s5, s6, s7 float32
	for j := range x0 {
		s0 += x0[j]
		s1 += x1[j]
		s2 += x2[j]
		s3 += x3[j]
		s4 += x4[j]
		s5 += x5[j]
		s6 += x6[j]
		s7 += x7[j]
	}
	fn := float32(n)
	*means = [batchLanes]float32{s0 / fn, s1 / fn, s2 / fn, s3 / fn, s4 / fn, s5 / fn, s6 / fn, s7 / fn}
}

// float32Epsilon is std::numeric_limits<float>::epsilon(), Kaldi's floor for
// energies before the log.
const float32Epsilon = 1.1920928955078125e-07

// logEnergy is Kaldi's log(max(VecVec(x, x), FLT_EPSILON)) with glibc's
// logf (see logf). The dot product is a double sum of the exact squares
// rounded to float: on kaldi-golden's fbank40e (612 frames) it gives
// Kaldi's log-energy bit for bit on all but 12 frames, against 19 for
// OpenBLAS's AVX2 sdot order (sdotKaldi) and 22 to 42 for the other sdot
// kernels tried, so Kaldi's own order is not known yet.
func logEnergy(x []float32) float32 {
	var e float64
	for _, v := range x {
		e += float64(v) * float64(v)
	}
	return logf(max(float32(e), float32Epsilon))
}
