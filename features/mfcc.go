package features

import (
	"flag"
	"fmt"
	"math"
)

// MfccOptions are Kaldi's MfccOptions (compute-mfcc-feats).
type MfccOptions struct {
	Frame          FrameExtractionOptions
	Mel            MelBanksOptions
	NumCeps        int     // --num-ceps: number of cepstra in MFCC computation (including C0)
	UseEnergy      bool    // --use-energy: use energy (not C0) in MFCC computation
	EnergyFloor    float64 // --energy-floor: floor on energy (absolute, not relative) in MFCC computation
	RawEnergy      bool    // --raw-energy: if true, compute energy before preemphasis and windowing
	CepstralLifter float64 // --cepstral-lifter: constant that controls scaling of MFCCs (0 = none)
	HTKCompat      bool    // --htk-compat: if true, put energy or C0 last and use a factor of sqrt(2) on C0
}

// DefaultMfccOptions are Kaldi's defaults (23 mel bins, 13 cepstra).
func DefaultMfccOptions() MfccOptions {
	return MfccOptions{
		Frame:          DefaultFrameExtractionOptions(),
		Mel:            DefaultMelBanksOptions(23),
		NumCeps:        13,
		UseEnergy:      true,
		RawEnergy:      true,
		CepstralLifter: 22,
	}
}

// Register adds the options to fs under Kaldi's names.
func (o *MfccOptions) Register(fs *flag.FlagSet) {
	o.Frame.Register(fs)
	o.Mel.Register(fs)
	fs.IntVar(&o.NumCeps, "num-ceps", o.NumCeps, "Number of cepstra in MFCC computation (including C0)")
	fs.BoolVar(&o.UseEnergy, "use-energy", o.UseEnergy, "Use energy (not C0) in MFCC computation")
	fs.Float64Var(&o.EnergyFloor, "energy-floor", o.EnergyFloor, "Floor on energy (absolute, not relative) in MFCC computation. Only makes a difference if --use-energy=true; only necessary if --dither=0.0.  Suggested values: 0.1 or 1.0")
	fs.BoolVar(&o.RawEnergy, "raw-energy", o.RawEnergy, "If true, compute energy before preemphasis and windowing")
	fs.Float64Var(&o.CepstralLifter, "cepstral-lifter", o.CepstralLifter, "Constant that controls scaling of MFCCs")
	fs.BoolVar(&o.HTKCompat, "htk-compat", o.HTKCompat, "If true, put energy or C0 last and use a factor of sqrt(2) on C0.  Warning: not sufficient to get HTK compatible features (need to change other parameters).")
}

// Mfcc computes Kaldi's MFCCs: log mel energies, a DCT-II with Kaldi's
// normalisation (row 0 √(1/N), others √(2/N)·cos(π/N·(n+½)·k)), the
// cepstral lifter 1 + (Q/2)·sin(πi/Q), and C0 replaced by the log-energy
// with --use-energy.
type Mfcc struct {
	opts        MfccOptions
	mel         melCache
	fft         *powerSpectrum
	dct         []float32 // NumCeps × NumBins, row-major, in float as Kaldi's dct_matrix_
	lifter      []float32 // Kaldi's lifter_coeffs_ (nil: no liftering)
	spectrum    []float64
	spectra     [][]float64 // one per frame of a batch
	energies    []float64
	batchE      [][]float64 // mel energies of the frames of a batch
	logE        []float32   // their logs
	logEnergyFl float32
}

// NewMfcc checks the options and precomputes the FFT, DCT and mel banks.
func NewMfcc(o MfccOptions) (*Mfcc, error) {
	if err := o.Frame.Validate(); err != nil {
		return nil, err
	}
	if err := finiteOptions(map[string]float64{"energy-floor": o.EnergyFloor, "cepstral-lifter": o.CepstralLifter}); err != nil {
		return nil, err
	}
	nb := o.Mel.NumBins
	if o.NumCeps > nb {
		return nil, fmt.Errorf("%w: num-ceps cannot be larger than num-mel-bins. It should be smaller or equal. You provided num-ceps: %d and num-mel-bins: %d", ErrOptions, o.NumCeps, nb)
	}
	if o.NumCeps < 1 {
		return nil, fmt.Errorf("%w: --num-ceps=%d must be positive", ErrOptions, o.NumCeps)
	}
	m := &Mfcc{
		opts:     o,
		mel:      melCache{mel: o.Mel, frame: o.Frame},
		fft:      newPowerSpectrum(o.Frame.PaddedWindowSize()),
		spectrum: make([]float64, o.Frame.PaddedWindowSize()/2+1),
		energies: make([]float64, nb),
		dct:      make([]float32, o.NumCeps*nb),
	}
	m.spectra = makeSpectra(m.fft.batchLen(), len(m.spectrum))
	m.batchE = makeSpectra(m.fft.batchLen(), nb)
	m.logE = make([]float32, nb)
	// Kaldi's ComputeDctMatrix, in float.
	norm0 := float32(math.Sqrt(1 / float64(float32(nb))))
	norm := float32(math.Sqrt(2 / float64(float32(nb))))
	for k := 0; k < o.NumCeps; k++ {
		for n := 0; n < nb; n++ {
			v := norm0
			if k > 0 {
				v = float32(float64(norm) * math.Cos(math.Pi/float64(nb)*(float64(n)+0.5)*float64(k)))
			}
			m.dct[k*nb+n] = v
		}
	}
	// Kaldi's ComputeLifterCoeffs: 1.0 + 0.5 * Q * sin(M_PI * i / Q) in
	// double, stored as float.
	if q := float32(o.CepstralLifter); q != 0 {
		m.lifter = make([]float32, o.NumCeps)
		for i := range m.lifter {
			m.lifter[i] = float32(1 + 0.5*float64(q)*math.Sin(math.Pi*float64(i)/float64(q)))
		}
	}
	if o.EnergyFloor > 0 {
		// Kaldi: log_energy_floor_ = Log(opts.energy_floor), glibc's logf.
		m.logEnergyFl = logf(float32(o.EnergyFloor))
	}
	if _, err := m.mel.get(1); err != nil {
		return nil, err
	}
	return m, nil
}

// Dim is --num-ceps.
func (m *Mfcc) Dim() int { return m.opts.NumCeps }

// FrameOptions returns the framing options.
func (m *Mfcc) FrameOptions() FrameExtractionOptions { return m.opts.Frame }

// NeedRawLogEnergy is true with --use-energy --raw-energy.
func (m *Mfcc) NeedRawLogEnergy() bool { return m.opts.UseEnergy && m.opts.RawEnergy }

// Clone returns an independent computer with the same options.
func (m *Mfcc) Clone() Computer {
	c, _ := NewMfcc(m.opts)
	return c
}

// ComputeFrame is Kaldi's MfccComputer::Compute.
func (m *Mfcc) ComputeFrame(rawLogEnergy float32, vtlnWarp float64, frame []float32, out []float32) error {
	mb, err := m.mel.get(vtlnWarp)
	if err != nil {
		return err
	}
	if m.opts.UseEnergy && !m.opts.RawEnergy {
		rawLogEnergy = logEnergy(frame)
	}
	m.fft.compute(frame, m.spectrum)
	m.fromSpectrum(mb, rawLogEnergy, m.spectrum, out)
	return nil
}

func (m *Mfcc) batchLen() int { return m.fft.batchLen() }

// computeFrames is ComputeFrame on up to batchLen frames, with one batched
// FFT.
func (m *Mfcc) computeFrames(rawLogEnergies []float32, vtlnWarp float64, frames, outs [][]float32) error {
	mb, err := m.mel.get(vtlnWarp)
	if err != nil {
		return err
	}
	if m.opts.UseEnergy && !m.opts.RawEnergy {
		for l, fr := range frames {
			rawLogEnergies[l] = logEnergy(fr)
		}
	}
	computeMelBatch(m.fft, mb, frames, true, m.batchE, m.spectra,
		func(l int, e []float64) { m.fromEnergies(rawLogEnergies[l], e, outs[l]) },
		func(l int, sp []float64) { m.fromSpectrum(mb, rawLogEnergies[l], sp, outs[l]) })
	return nil
}

// fromSpectrum is the rest of MfccComputer::Compute after the power
// spectrum.
func (m *Mfcc) fromSpectrum(mb *MelBanks, rawLogEnergy float32, spectrum []float64, out []float32) {
	mb.Compute(spectrum, m.energies)
	m.fromEnergies(rawLogEnergy, m.energies, out)
}

// fromEnergies is the rest of MfccComputer::Compute after the mel filters
// (energies is overwritten).
func (m *Mfcc) fromEnergies(rawLogEnergy float32, energies []float64, out []float32) {
	o := &m.opts
	// Kaldi keeps these in float: floor at FLT_EPSILON, then log.
	logE := m.logE[:len(energies)]
	logFloor(logE, energies)
	out = out[:o.NumCeps]
	// Kaldi (feature-mfcc.cc): feature->AddMatVec(1.0, dct_matrix_,
	// kNoTrans, mel_energies_, 0.0), a float cblas_sgemv (see dctKaldi),
	// then feature->MulElements(lifter_coeffs_), a float product.
	dctKaldi(m.dct, o.NumCeps, len(logE), logE, out)
	for k, l := range m.lifter {
		out[k] *= l
	}
	if o.UseEnergy {
		if o.EnergyFloor > 0 && rawLogEnergy < m.logEnergyFl {
			rawLogEnergy = m.logEnergyFl
		}
		out[0] = rawLogEnergy
	}
	if o.HTKCompat {
		energy := out[0]
		copy(out, out[1:])
		if !o.UseEnergy {
			// Undo the √2 of the DCT's C0 normalisation: Kaldi's
			// energy *= M_SQRT2 multiplies in double and rounds to float.
			energy = float32(float64(energy) * math.Sqrt2)
		}
		out[o.NumCeps-1] = energy
	}
}
