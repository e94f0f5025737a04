package features

import (
	"flag"
	"math"
)

// FbankOptions are Kaldi's FbankOptions (compute-fbank-feats).
type FbankOptions struct {
	Frame       FrameExtractionOptions
	Mel         MelBanksOptions
	UseEnergy   bool    // --use-energy: add an extra dimension with energy to the FBANK output
	EnergyFloor float64 // --energy-floor: floor on energy (absolute, not relative) in FBANK computation; only makes a difference with --use-energy=true and usually with --dither=0
	RawEnergy   bool    // --raw-energy: if true, compute energy before preemphasis and windowing
	HTKCompat   bool    // --htk-compat: if true, put energy last
	UseLogFbank bool    // --use-log-fbank: if true, produce log-filterbank, else produce linear
	UsePower    bool    // --use-power: if true, use power, else use magnitude
}

// DefaultFbankOptions are Kaldi's defaults (23 mel bins).
func DefaultFbankOptions() FbankOptions {
	return FbankOptions{
		Frame:       DefaultFrameExtractionOptions(),
		Mel:         DefaultMelBanksOptions(23),
		RawEnergy:   true,
		UseLogFbank: true,
		UsePower:    true,
	}
}

// Register adds the options to fs under Kaldi's names.
func (o *FbankOptions) Register(fs *flag.FlagSet) {
	o.Frame.Register(fs)
	o.Mel.Register(fs)
	fs.BoolVar(&o.UseEnergy, "use-energy", o.UseEnergy, "Add an extra dimension with energy to the FBANK output.")
	fs.Float64Var(&o.EnergyFloor, "energy-floor", o.EnergyFloor, "Floor on energy (absolute, not relative) in FBANK computation. Only makes a difference if --use-energy=true; only necessary if --dither=0.0.  Suggested values: 0.1 or 1.0")
	fs.BoolVar(&o.RawEnergy, "raw-energy", o.RawEnergy, "If true, compute energy before preemphasis and windowing")
	fs.BoolVar(&o.HTKCompat, "htk-compat", o.HTKCompat, "If true, put energy last.  Warning: not sufficient to get HTK compatible features (need to change other parameters).")
	fs.BoolVar(&o.UseLogFbank, "use-log-fbank", o.UseLogFbank, "If true, produce log-filterbank, else produce linear.")
	fs.BoolVar(&o.UsePower, "use-power", o.UsePower, "If true, use power, else use magnitude.")
}

// Computer turns one windowed frame into one feature vector: Kaldi's
// FbankComputer/MfccComputer concept. A Computer keeps scratch buffers, so
// each goroutine needs its own (Clone).
type Computer interface {
	// Dim is the feature dimension.
	Dim() int
	// FrameOptions are the framing options the computer was built with.
	FrameOptions() FrameExtractionOptions
	// NeedRawLogEnergy says whether ComputeFrame wants the log-energy of the
	// frame before pre-emphasis and windowing.
	NeedRawLogEnergy() bool
	// ComputeFrame computes the features of one frame (length
	// PaddedWindowSize, overwritten) into out (length Dim). It does not
	// allocate once the mel banks for vtlnWarp exist.
	ComputeFrame(rawLogEnergy float32, vtlnWarp float64, frame []float32, out []float32) error
	// Clone returns an independent computer with the same options.
	Clone() Computer
}

// melCache keeps the mel banks per VTLN warp factor, as Kaldi's GetMelBanks.
type melCache struct {
	mel   MelBanksOptions
	frame FrameExtractionOptions
	banks map[float32]*MelBanks
}

func (c *melCache) get(warp float64) (*MelBanks, error) {
	if mb, ok := c.banks[float32(warp)]; ok {
		return mb, nil
	}
	mb, err := NewMelBanks(c.mel, c.frame, warp)
	if err != nil {
		return nil, err
	}
	if c.banks == nil {
		c.banks = map[float32]*MelBanks{}
	}
	c.banks[float32(warp)] = mb
	return mb, nil
}

// Fbank computes Kaldi's log mel filter-bank features.
type Fbank struct {
	opts        FbankOptions
	mel         melCache
	fft         *powerSpectrum
	spectrum    []float64
	spectra     [][]float64 // one per frame of a batch
	energies    []float64
	batchE      [][]float64 // mel energies of the frames of a batch
	logEnergyFl float32
}

// NewFbank checks the options (as Kaldi does when it builds the computer)
// and precomputes the FFT and the unwarped mel banks.
func NewFbank(o FbankOptions) (*Fbank, error) {
	if err := o.Frame.Validate(); err != nil {
		return nil, err
	}
	if err := finiteOptions(map[string]float64{"energy-floor": o.EnergyFloor}); err != nil {
		return nil, err
	}
	f := &Fbank{
		opts:     o,
		mel:      melCache{mel: o.Mel, frame: o.Frame},
		fft:      newPowerSpectrum(o.Frame.PaddedWindowSize()),
		spectrum: make([]float64, o.Frame.PaddedWindowSize()/2+1),
		energies: make([]float64, o.Mel.NumBins),
	}
	f.spectra = makeSpectra(f.fft.batchLen(), len(f.spectrum))
	f.batchE = makeSpectra(f.fft.batchLen(), o.Mel.NumBins)
	if o.EnergyFloor > 0 {
		// Kaldi: log_energy_floor_ = Log(opts.energy_floor), glibc's logf.
		f.logEnergyFl = logf(float32(o.EnergyFloor))
	}
	if _, err := f.mel.get(1); err != nil {
		return nil, err
	}
	return f, nil
}

// Dim is num-mel-bins, plus one with --use-energy.
func (f *Fbank) Dim() int {
	if f.opts.UseEnergy {
		return f.opts.Mel.NumBins + 1
	}
	return f.opts.Mel.NumBins
}

// FrameOptions returns the framing options.
func (f *Fbank) FrameOptions() FrameExtractionOptions { return f.opts.Frame }

// NeedRawLogEnergy is true with --use-energy --raw-energy.
func (f *Fbank) NeedRawLogEnergy() bool { return f.opts.UseEnergy && f.opts.RawEnergy }

// Clone returns an independent computer with the same options.
func (f *Fbank) Clone() Computer {
	g, _ := NewFbank(f.opts) // the options were valid for f
	return g
}

// ComputeFrame is Kaldi's FbankComputer::Compute.
func (f *Fbank) ComputeFrame(rawLogEnergy float32, vtlnWarp float64, frame []float32, out []float32) error {
	mb, err := f.mel.get(vtlnWarp)
	if err != nil {
		return err
	}
	if f.opts.UseEnergy && !f.opts.RawEnergy {
		rawLogEnergy = logEnergy(frame)
	}
	f.fft.compute(frame, f.spectrum)
	f.fromSpectrum(mb, rawLogEnergy, f.spectrum, out)
	return nil
}

func (f *Fbank) batchLen() int { return f.fft.batchLen() }

// computeFrames is ComputeFrame on up to batchLen frames, with one batched
// FFT.
func (f *Fbank) computeFrames(rawLogEnergies []float32, vtlnWarp float64, frames, outs [][]float32) error {
	mb, err := f.mel.get(vtlnWarp)
	if err != nil {
		return err
	}
	if f.opts.UseEnergy && !f.opts.RawEnergy {
		for l, fr := range frames {
			rawLogEnergies[l] = logEnergy(fr)
		}
	}
	// Mel filters straight from the packed spectra, unless magnitudes are
	// wanted (they need each frame's spectrum).
	computeMelBatch(f.fft, mb, frames, f.opts.UsePower, f.batchE, f.spectra,
		func(l int, e []float64) { f.fromEnergies(rawLogEnergies[l], e, outs[l]) },
		func(l int, sp []float64) { f.fromSpectrum(mb, rawLogEnergies[l], sp, outs[l]) })
	return nil
}

// fromSpectrum is the rest of FbankComputer::Compute after the power
// spectrum (overwritten).
func (f *Fbank) fromSpectrum(mb *MelBanks, rawLogEnergy float32, spectrum []float64, out []float32) {
	o := &f.opts
	if !o.UsePower {
		for i, v := range spectrum {
			spectrum[i] = math.Sqrt(v)
		}
	}
	mb.Compute(spectrum, f.energies)
	f.fromEnergies(rawLogEnergy, f.energies, out)
}

// fromEnergies is the rest of FbankComputer::Compute after the mel filters.
func (f *Fbank) fromEnergies(rawLogEnergy float32, energies []float64, out []float32) {
	o := &f.opts
	offset := 0
	if o.UseEnergy && !o.HTKCompat {
		offset = 1
	}
	dst := out[offset : offset+len(energies)]
	if o.UseLogFbank {
		// Kaldi floors at FLT_EPSILON so silence gives log(ε), never −Inf.
		logFloor(dst, energies)
	} else {
		for i, e := range energies {
			dst[i] = float32(e)
		}
	}
	if o.UseEnergy {
		if o.EnergyFloor > 0 && rawLogEnergy < f.logEnergyFl {
			rawLogEnergy = f.logEnergyFl
		}
		if o.HTKCompat {
			out[o.Mel.NumBins] = rawLogEnergy
		} else {
			out[0] = rawLogEnergy
		}
	}
}

// makeSpectra allocates n power-spectrum buffers of length bins.
func makeSpectra(n, bins int) [][]float64 {
	flat := make([]float64, n*bins)
	s := make([][]float64, n)
	for i := range s {
		s[i] = flat[i*bins : (i+1)*bins : (i+1)*bins]
	}
	return s
}
