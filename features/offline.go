package features

import (
	"errors"
	"fmt"
)

// ErrSampleRate marks a waveform whose sampling rate differs from
// --sample-frequency without --allow-downsample/--allow-upsample.
var ErrSampleRate = errors.New("sample frequency mismatch")

// Offline is Kaldi's OfflineFeatureTpl: it frames a whole waveform and runs a
// Computer on every frame. The frame buffer is allocated once; the per-frame
// loop does not allocate. An Offline is not safe for concurrent use: give each
// goroutine its own (NewOffline(c.Clone())).
type Offline struct {
	c     Computer
	ext   *frameExtractor
	frame []float32

	// With a batching computer: frames, their raw log-energies and output
	// rows, batchLen of each.
	batcher  frameBatcher
	frames   [][]float32
	energies []float32
	outs     [][]float32
}

// frameBatcher is a Computer that can compute several frames at once (the
// FFT of eight frames runs on vector kernels): Fbank and Mfcc.
type frameBatcher interface {
	batchLen() int
	computeFrames(rawLogEnergies []float32, vtlnWarp float64, frames, outs [][]float32) error
}

// NewOffline wraps a computer.
func NewOffline(c Computer) (*Offline, error) {
	ext, err := newFrameExtractor(c.FrameOptions())
	if err != nil {
		return nil, err
	}
	o := &Offline{c: c, ext: ext, frame: make([]float32, ext.padded)}
	if b, ok := c.(frameBatcher); ok && b.batchLen() > 1 {
		o.batcher = b
		o.frames = make([][]float32, b.batchLen())
		for i := range o.frames {
			o.frames[i] = make([]float32, ext.padded)
		}
		o.energies = make([]float32, b.batchLen())
		o.outs = make([][]float32, b.batchLen())
	}
	return o, nil
}

// Computer returns the wrapped computer.
func (o *Offline) Computer() Computer { return o.c }

// Dim is the feature dimension.
func (o *Offline) Dim() int { return o.c.Dim() }

// NumFrames is the number of frames a waveform of numSamples samples gives.
func (o *Offline) NumFrames(numSamples int) int { return o.ext.opts.NumFrames(numSamples) }

// Compute computes the features of wave (one channel, sampled at sampFreq)
// and returns them row-major with NumFrames rows of Dim columns; dst is reused
// when it has the capacity. key seeds the dither noise (with --dither-seed),
// so the result does not depend on which goroutine computes it. A waveform
// shorter than one frame gives zero rows (Kaldi's empty matrix). A sampling
// rate other than --sample-frequency is resampled with --allow-downsample or
// --allow-upsample, and is otherwise an error wrapping ErrSampleRate.
func (o *Offline) Compute(dst []float32, key string, wave []float32, sampFreq, vtlnWarp float64) ([]float32, int, error) {
	opts := &o.ext.opts
	if float32(sampFreq) != float32(opts.SampFreq) {
		newFreq := opts.SampFreq
		switch {
		case newFreq < sampFreq && opts.AllowDownsample, newFreq > sampFreq && opts.AllowUpsample:
			var err error
			if wave, err = ResampleWaveform(sampFreq, wave, newFreq); err != nil {
				return dst[:0], 0, err
			}
		default:
			return dst[:0], 0, fmt.Errorf("%w: Waveform and config sample Frequency mismatch: %v .vs %v (use --allow-downsample=true to allow downsampling the waveform, or --allow-upsample=true to upsample)", ErrSampleRate, sampFreq, newFreq)
		}
	}
	rows := o.NumFrames(len(wave))
	dim := o.c.Dim()
	if cap(dst) < rows*dim {
		dst = make([]float32, rows*dim)
	}
	dst = dst[:rows*dim]
	if rows == 0 {
		return dst, 0, nil
	}
	if o.ext.dither != 0 {
		o.ext.seed(key)
	}
	wantEnergy := o.c.NeedRawLogEnergy()
	if o.batcher != nil {
		// Frames are extracted in order (the dither noise is sequential),
		// a batch at a time.
		nb := len(o.frames)
		for r0 := 0; r0 < rows; r0 += nb {
			k := min(nb, rows-r0)
			o.ext.extractBatch(wave, r0, o.frames[:k], wantEnergy, o.energies[:k])
			for i := 0; i < k; i++ {
				o.outs[i] = dst[(r0+i)*dim : (r0+i+1)*dim]
			}
			if err := o.batcher.computeFrames(o.energies[:k], vtlnWarp, o.frames[:k], o.outs[:k]); err != nil {
				return dst[:0], 0, err
			}
		}
		return dst, rows, nil
	}
	for r := 0; r < rows; r++ {
		e := o.ext.extract(wave, r, o.frame, wantEnergy)
		if err := o.c.ComputeFrame(e, vtlnWarp, o.frame, dst[r*dim:(r+1)*dim]); err != nil {
			return dst[:0], 0, err
		}
	}
	return dst, rows, nil
}
