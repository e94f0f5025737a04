package features

import (
	"flag"
	"fmt"
	"math"
)

// MelBanksOptions are Kaldi's MelBanksOptions.
type MelBanksOptions struct {
	NumBins  int     // --num-mel-bins: number of triangular mel-frequency bins
	LowFreq  float64 // --low-freq: low cutoff frequency for mel bins
	HighFreq float64 // --high-freq: high cutoff frequency for mel bins (if ≤ 0, offset from Nyquist)
	VtlnLow  float64 // --vtln-low: low inflection point in piecewise linear VTLN warping function
	VtlnHigh float64 // --vtln-high: high inflection point (if negative, offset from high-mel-freq)
	Debug    bool    // --debug-mel: print out debugging information for mel bin computation
	HTKMode  bool    // htk_mode: not a command-line option in compute-*-feats; floors energies at 1 and drops bin 0's first weight as HTK
}

// DefaultMelBanksOptions are Kaldi's defaults for the given number of bins
// (25 in MelBanksOptions; 23 in FbankOptions and MfccOptions).
func DefaultMelBanksOptions(numBins int) MelBanksOptions {
	return MelBanksOptions{NumBins: numBins, LowFreq: 20, HighFreq: 0, VtlnLow: 100, VtlnHigh: -500}
}

// Register adds the options to fs under Kaldi's names.
func (o *MelBanksOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.NumBins, "num-mel-bins", o.NumBins, "Number of triangular mel-frequency bins")
	fs.Float64Var(&o.LowFreq, "low-freq", o.LowFreq, "Low cutoff frequency for mel bins")
	fs.Float64Var(&o.HighFreq, "high-freq", o.HighFreq, "High cutoff frequency for mel bins (if <= 0, offset from Nyquist)")
	fs.Float64Var(&o.VtlnLow, "vtln-low", o.VtlnLow, "Low inflection point in piecewise linear VTLN warping function")
	fs.Float64Var(&o.VtlnHigh, "vtln-high", o.VtlnHigh, "High inflection point in piecewise linear VTLN warping function (if negative, offset from high-mel-freq")
	fs.BoolVar(&o.Debug, "debug-mel", o.Debug, "Print out debugging information for mel bin computation")
}

// MelScale is Kaldi's MelScale, 1127·ln(1 + f/700), in float as Kaldi:
// 1127.0f * logf(1.0f + freq / 700.0f) (mel-computations.h), with glibc's
// logf (see logf), whose occasional last-bit difference from the correctly
// rounded log moves a filter weight by an ulp and with it every frame's
// energy in that filter: with the correctly rounded log, 95.1 % of
// kaldi-golden's fbank23 values were bit-identical to Kaldi's, with logf
// 97.4 %.
func MelScale(freq float32) float32 {
	return 1127 * logf(1+freq/700)
}

// InverseMelScale is Kaldi's InverseMelScale, 700·(e^{m/1127} − 1).
func InverseMelScale(mel float32) float32 {
	return 700 * (float32(math.Exp(float64(mel/1127))) - 1)
}

// VtlnWarpFreq is Kaldi's piecewise-linear VTLN warp: F(f) = f/α between
// the inflection points l = vtlnLow·max(1, α) and h = vtlnHigh·min(1, α),
// linear from (lowFreq, lowFreq) to (l, F(l)) and from (h, F(h)) to
// (highFreq, highFreq); frequencies outside [lowFreq, highFreq] are unchanged.
func VtlnWarpFreq(vtlnLow, vtlnHigh, lowFreq, highFreq, warp, freq float32) float32 {
	if freq < lowFreq || freq > highFreq {
		return freq
	}
	l := vtlnLow * max(1, warp)
	h := vtlnHigh * min(1, warp)
	scale := 1 / warp
	fl := scale * l
	fh := scale * h
	scaleLeft := (fl - lowFreq) / (l - lowFreq)
	scaleRight := (highFreq - fh) / (highFreq - h)
	switch {
	case freq < l:
		return lowFreq + float32(scaleLeft*(freq-lowFreq))
	case freq < h:
		return scale * freq
	default:
		return highFreq + float32(scaleRight*(freq-highFreq))
	}
}

// VtlnWarpMelFreq warps a mel frequency: MelScale(VtlnWarpFreq(InverseMelScale(m))).
func VtlnWarpMelFreq(vtlnLow, vtlnHigh, lowFreq, highFreq, warp, mel float32) float32 {
	return MelScale(VtlnWarpFreq(vtlnLow, vtlnHigh, lowFreq, highFreq, warp, InverseMelScale(mel)))
}

// MelBanks are Kaldi's triangular mel filters over the FFT bins, computed in
// float exactly as Kaldi (so the same FFT bins fall inside each triangle).
type MelBanks struct {
	CenterFreqs []float32
	bins        []melBin
	htkMode     bool
	// weights is every bin's weights back to back (one allocation, read in order).
	weights []float64
}

type melBin struct {
	offset int // first FFT bin
	w      []float64
}

// NewMelBanks builds the filters for a frame configuration and VTLN warp
// factor (1 for none), checking the options as Kaldi does.
func NewMelBanks(o MelBanksOptions, frame FrameExtractionOptions, vtlnWarp float64) (*MelBanks, error) {
	if err := finiteOptions(map[string]float64{
		"low-freq": o.LowFreq, "high-freq": o.HighFreq, "vtln-low": o.VtlnLow, "vtln-high": o.VtlnHigh, "vtln-warp": vtlnWarp,
	}); err != nil {
		return nil, err
	}
	numBins := o.NumBins
	if numBins < 3 {
		return nil, fmt.Errorf("%w: must have at least 3 mel bins", ErrOptions)
	}
	sampleFreq := float32(frame.SampFreq)
	paddedLen := frame.PaddedWindowSize()
	if paddedLen%2 != 0 {
		return nil, fmt.Errorf("%w: padded window size %d is odd", ErrOptions, paddedLen)
	}
	numFFTBins := paddedLen / 2
	nyquist := 0.5 * sampleFreq
	lowFreq := float32(o.LowFreq)
	highFreq := float32(o.HighFreq)
	if o.HighFreq <= 0 {
		highFreq = nyquist + float32(o.HighFreq)
	}
	if lowFreq < 0 || lowFreq >= nyquist || highFreq <= 0 || highFreq > nyquist || highFreq <= lowFreq {
		return nil, fmt.Errorf("%w: bad values in options: low-freq %v and high-freq %v vs. nyquist %v", ErrOptions, lowFreq, highFreq, nyquist)
	}
	fftBinWidth := sampleFreq / float32(paddedLen)
	melLow := MelScale(lowFreq)
	melHigh := MelScale(highFreq)
	melDelta := (melHigh - melLow) / float32(numBins+1)
	vtlnLow, vtlnHigh := float32(o.VtlnLow), float32(o.VtlnHigh)
	if vtlnHigh < 0 {
		vtlnHigh += nyquist
	}
	warp := float32(vtlnWarp)
	if warp != 1 && (vtlnLow < 0 || vtlnLow <= lowFreq || vtlnLow >= highFreq || vtlnHigh <= 0 || vtlnHigh >= highFreq || vtlnHigh <= vtlnLow) {
		return nil, fmt.Errorf("%w: bad values in options: vtln-low %v and vtln-high %v, versus low-freq %v and high-freq %v", ErrOptions, vtlnLow, vtlnHigh, lowFreq, highFreq)
	}
	mb := &MelBanks{CenterFreqs: make([]float32, numBins), bins: make([]melBin, numBins), htkMode: o.HTKMode}
	// FFT bin mel values, shared by all triangles.
	mels := make([]float32, numFFTBins)
	for i := range mels {
		mels[i] = MelScale(fftBinWidth * float32(i))
	}
	thisBin := make([]float32, numFFTBins)
	for bin := 0; bin < numBins; bin++ {
		// (Conversions keep the compiler from fusing into FMA.)
		left := melLow + float32(float32(bin)*melDelta)
		center := melLow + float32(float32(bin+1)*melDelta)
		right := melLow + float32(float32(bin+2)*melDelta)
		if warp != 1 {
			left = VtlnWarpMelFreq(vtlnLow, vtlnHigh, lowFreq, highFreq, warp, left)
			center = VtlnWarpMelFreq(vtlnLow, vtlnHigh, lowFreq, highFreq, warp, center)
			right = VtlnWarpMelFreq(vtlnLow, vtlnHigh, lowFreq, highFreq, warp, right)
		}
		mb.CenterFreqs[bin] = InverseMelScale(center)
		first, last := -1, -1
		for i, mel := range mels {
			if mel > left && mel < right {
				var w float32
				if mel <= center {
					w = (mel - left) / (center - left)
				} else {
					w = (right - mel) / (right - center)
				}
				thisBin[i] = w
				if first == -1 {
					first = i
				}
				last = i
			}
		}
		if first == -1 || last < first {
			return nil, fmt.Errorf("%w: mel bin %d is empty: you may have set --num-mel-bins too large", ErrOptions, bin)
		}
		w := make([]float64, last+1-first)
		for i := range w {
			w[i] = float64(thisBin[first+i])
		}
		if o.HTKMode && bin == 0 && melLow != 0 {
			w[0] = 0 // replicate a bug in HTK, for testing purposes
		}
		mb.bins[bin] = melBin{offset: first, w: w}
	}
	// Pack the weights contiguously.
	n := 0
	for _, b := range mb.bins {
		n += len(b.w)
	}
	mb.weights = make([]float64, 0, n)
	for i, b := range mb.bins {
		start := len(mb.weights)
		mb.weights = append(mb.weights, b.w...)
		mb.bins[i].w = mb.weights[start:len(mb.weights):len(mb.weights)]
	}
	return mb, nil
}

// NumBins is the number of filters.
func (mb *MelBanks) NumBins() int { return len(mb.bins) }

// computeBatch is Compute for up to eight power spectra held element-major
// (bin k of frame l at pow[k·8+l], from the batched FFT): energies[l] gets
// frame l's filter outputs. The sums are in double, as Compute's.
func (mb *MelBanks) computeBatch(pow []float32, energies [][]float64) {
	var e [batchLanes]float64
	for i, b := range mb.bins {
		melBatch(pow[b.offset*batchLanes:], b.w, &e)
		for l, out := range energies {
			v := e[l]
			if mb.htkMode && v < 1 {
				v = 1 // HTK-like flooring
			}
			out[i] = v
		}
	}
}

// Compute writes the filter outputs for a power (or magnitude) spectrum of
// n/2+1 bins into out (length NumBins).
func (mb *MelBanks) Compute(spectrum []float64, out []float64) {
	for i, b := range mb.bins {
		w := b.w
		s := spectrum[b.offset : b.offset+len(w)]
		// Four partial sums in double, rounded to float by the caller.
		// Kaldi's VecVec is OpenBLAS's sdot (AVX2 micro-kernel for the
		// first n&−32 products, the rest rounded to float and summed in
		// double); emulating that order exactly (blas_test.go's sdotKaldi)
		// reproduced 0.14 % more of kaldi-golden's fbank values (65213
		// against 65122 of 66822) but made fbank two to three times
		// slower, so the features keep this sum (and its AVX2 batch form,
		// melBatch).
		var e0, e1, e2, e3 float64
		j := 0
		for ; j+4 <= len(w); j += 4 {
			e0 += w[j] * s[j]
			e1 += w[j+1] * s[j+1]
			e2 += w[j+2] * s[j+2]
			e3 += w[j+3] * s[j+3]
		}
		for ; j < len(w); j++ {
			e0 += w[j] * s[j]
		}
		e := (e0 + e1) + (e2 + e3)
		if mb.htkMode && e < 1 {
			e = 1 // HTK-like flooring
		}
		out[i] = e
	}
}

// computeMelBatch is the batched spectral step shared by fbank and MFCC.
// With packed set and a batch the FFT can return packed, the mel energies of
// all frames come straight from the packed power spectra and
// fromEnergies(l, e) receives frame l's; otherwise each frame's power
// spectrum goes to fromSpectrum(l, spectrum), which may overwrite it.
func computeMelBatch(fft *powerSpectrum, mb *MelBanks, frames [][]float32, packed bool, batchE, spectra [][]float64, fromEnergies, fromSpectrum func(l int, v []float64)) {
	if packed {
		if pow, ok := fft.computeBatchPacked(frames); ok {
			energies := batchE[:len(frames)]
			mb.computeBatch(pow, energies)
			for l, e := range energies {
				fromEnergies(l, e)
			}
			return
		}
	}
	spectra = spectra[:len(frames)]
	fft.computeBatch(frames, spectra)
	for l, sp := range spectra {
		fromSpectrum(l, sp)
	}
}
