package features

import (
	"fmt"
)

// Online is Kaldi's OnlineGenericBaseFeature (OnlineFbank, OnlineMfcc): it
// takes a waveform in pieces as they arrive (AcceptWaveform) and computes
// each frame as soon as its last sample is in; InputFinished computes the
// frames that only the end of the signal completes (with --snip-edges=false
// the last frames reflect the signal at its end, so they wait for it).
//
// The frames are the whole-utterance frames of Offline bit for bit, for any
// split of the samples into pieces: every frame is cut from the same
// samples and goes through the same float operations (the eight-frame FFT
// batches give each lane exactly the one-frame arithmetic, so how frames are
// grouped into batches does not matter), and the dither noise, seeded by
// the key as Offline seeds it, is drawn frame by frame in the same order.
//
// Only the samples from the first one the next frame needs are kept, cut at
// a multiple of the frame shift, so a stream of any length takes bounded
// memory. Frames are handed out once, by Take. An Online serves one
// utterance; it is not safe for concurrent use.
type Online struct {
	c        Computer
	ext      *frameExtractor
	vtlnWarp float64
	dim      int
	shift    int

	wave     []float32 // samples from the absolute index offset on
	offset   int       // absolute index of wave[0], a multiple of shift
	received int       // samples accepted
	done     int       // frames computed
	finished bool

	feats []float32 // frames computed and not yet taken (rows × dim)

	frame    []float32
	batcher  frameBatcher
	frames   [][]float32
	energies []float32
	outs     [][]float32
}

// NewOnline returns an online feature extractor for one utterance: key
// seeds the dither noise (as Offline.Compute's key does) and vtlnWarp is
// the VTLN warp factor (1 for none).
func NewOnline(c Computer, key string, vtlnWarp float64) (*Online, error) {
	ext, err := newFrameExtractor(c.FrameOptions())
	if err != nil {
		return nil, err
	}
	o := &Online{c: c, ext: ext, vtlnWarp: vtlnWarp, dim: c.Dim(), shift: ext.opts.WindowShift(),
		frame: make([]float32, ext.padded)}
	if b, ok := c.(frameBatcher); ok && b.batchLen() > 1 {
		o.batcher = b
		o.frames = make([][]float32, b.batchLen())
		for i := range o.frames {
			o.frames[i] = make([]float32, ext.padded)
		}
		o.energies = make([]float32, b.batchLen())
		o.outs = make([][]float32, b.batchLen())
	}
	if ext.dither != 0 {
		ext.seed(key)
	}
	return o, nil
}

// Dim is the feature dimension.
func (o *Online) Dim() int { return o.dim }

// FrameOptions are the framing options.
func (o *Online) FrameOptions() FrameExtractionOptions { return o.ext.opts }

// NumFramesReady is the number of frames computed so far (taken or not).
func (o *Online) NumFramesReady() int { return o.done }

// NumSamples is the number of samples accepted so far.
func (o *Online) NumSamples() int { return o.received }

// IsLastFrame reports whether frame is the last one: only once the input
// has finished.
func (o *Online) IsLastFrame(frame int) bool { return o.finished && frame == o.done-1 }

// AcceptWaveform adds samples at sampFreq, which must be --sample-frequency:
// a stream cannot be resampled piece by piece here (Kaldi's online features
// resample; ours refuse with an error wrapping ErrSampleRate). Samples after
// InputFinished are an error.
func (o *Online) AcceptWaveform(sampFreq float64, samples []float32) error {
	if float32(sampFreq) != float32(o.ext.opts.SampFreq) {
		return fmt.Errorf("%w: Sampling frequency mismatch, expected %v, got %v (online features do not resample: give audio at --sample-frequency)", ErrSampleRate, o.ext.opts.SampFreq, sampFreq)
	}
	if o.finished {
		return fmt.Errorf("features: AcceptWaveform called after InputFinished")
	}
	o.wave = append(o.wave, samples...)
	o.received += len(samples)
	return o.compute()
}

// InputFinished says no more samples will come: the frames that need the
// end of the signal are computed. Calling it again does nothing.
func (o *Online) InputFinished() error {
	if o.finished {
		return nil
	}
	o.finished = true
	return o.compute()
}

// numFrames is Kaldi's NumFrames(num_samples, opts, flush): without flush,
// with --snip-edges=false, only the frames that end inside the samples.
func (o *Online) numFrames() int {
	opts := &o.ext.opts
	n := opts.NumFrames(o.received)
	if opts.SnipEdges || o.finished {
		return n
	}
	length := opts.WindowSize()
	for n > 0 && opts.FirstSampleOfFrame(n-1)+length > o.received {
		n--
	}
	return n
}

// compute computes the frames the samples now complete, then drops the
// samples no later frame needs.
func (o *Online) compute() error {
	want := o.numFrames()
	if want > o.done {
		// Frame f of the signal is frame f − base of the kept samples: the
		// extractor places frames by FirstSampleOfFrame, which moves by one
		// shift per frame, and offset is a multiple of the shift. Frames
		// that start before sample 0 or end after the last sample (reflected
		// by the extractor) are only computed when offset is 0 or the input
		// has finished, so the reflection sees the true ends.
		base := o.offset / o.shift
		n := len(o.feats)
		o.feats = append(o.feats, make([]float32, (want-o.done)*o.dim)...)
		wantEnergy := o.c.NeedRawLogEnergy()
		for f := o.done; f < want; {
			out := o.feats[n+(f-o.done)*o.dim:]
			if o.batcher == nil {
				e := o.ext.extract(o.wave, f-base, o.frame, wantEnergy)
				if err := o.c.ComputeFrame(e, o.vtlnWarp, o.frame, out[:o.dim]); err != nil {
					return err
				}
				f++
				continue
			}
			k := min(len(o.frames), want-f)
			o.ext.extractBatch(o.wave, f-base, o.frames[:k], wantEnergy, o.energies[:k])
			for i := 0; i < k; i++ {
				o.outs[i] = out[i*o.dim : (i+1)*o.dim]
			}
			if err := o.batcher.computeFrames(o.energies[:k], o.vtlnWarp, o.frames[:k], o.outs[:k]); err != nil {
				return err
			}
			f += k
		}
		o.done = want
	}
	// Keep the samples from the start of the next frame, rounded down to a
	// multiple of the shift (nothing is dropped while frames before sample
	// 0 remain).
	first := o.ext.opts.FirstSampleOfFrame(o.done)
	if keep := first / o.shift * o.shift; first > 0 && keep > o.offset {
		drop := keep - o.offset
		if drop > len(o.wave) { // a frame shift longer than the window
			drop = len(o.wave) / o.shift * o.shift
		}
		o.wave = append(o.wave[:0], o.wave[drop:]...)
		o.offset += drop
	}
	return nil
}

// Take returns the frames computed since the last Take (rows × Dim,
// row-major, in dst when it has the capacity) and their number.
func (o *Online) Take(dst []float32) ([]float32, int) {
	rows := len(o.feats) / o.dim
	dst = append(dst[:0], o.feats...)
	o.feats = o.feats[:0]
	return dst, rows
}
