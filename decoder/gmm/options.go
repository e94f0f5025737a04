package gmm

import (
	"flag"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/kaldiio"
)

// Register adds the options to fs under Kaldi's names.
func (o *MleDiagGmmOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.MinGaussianWeight, "min-gaussian-weight", o.MinGaussianWeight, "Min Gaussian weight before we remove it.")
	fs.Float64Var(&o.MinGaussianOccupancy, "min-gaussian-occupancy", o.MinGaussianOccupancy, "Minimum occupancy to update a Gaussian.")
	fs.Float64Var(&o.MinVariance, "min-variance", o.MinVariance, "Variance floor (absolute variance).")
	fs.BoolVar(&o.RemoveLowCountGaussians, "remove-low-count-gaussians", o.RemoveLowCountGaussians, "If true, remove Gaussians that fall below the floors.")
}

// Register adds the options to fs under gmm-est's names.
func (o *MixUpOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.MixUp, "mix-up", o.MixUp, "Increase number of mixture components to this overall target.")
	fs.Float64Var(&o.Power, "power", o.Power, "If mixing up, power to allocate Gaussians to states.")
	fs.Float64Var(&o.MinCount, "min-count", o.MinCount, "Minimum per-Gaussian count enforced while mixing up and down.")
	fs.Float64Var(&o.PerturbFactor, "perturb-factor", o.PerturbFactor, "While mixing up, perturb means by standard deviation times this factor.")
}

// EstOptions are gmm-est's options: what to update, how (the GMM's and the
// transitions' floors), the mixing up, and where the occupancies go.
type EstOptions struct {
	UpdateFlags string // --update-flags: a subset of mvwt (means, variances, weights, transitions)
	WriteOccs   string // --write-occs: wxfilename of the pdf occupancies; "" for none
	Gmm         MleDiagGmmOptions
	Transitions hmm.MleTransitionUpdateOptions
	MixUp       MixUpOptions
}

// DefaultEstOptions are gmm-est's defaults: update everything, no mixing up.
func DefaultEstOptions() EstOptions {
	return EstOptions{UpdateFlags: "mvwt", Gmm: DefaultMleDiagGmmOptions(),
		Transitions: hmm.DefaultMleTransitionUpdateOptions(), MixUp: DefaultMixUpOptions()}
}

// Register adds the options to fs under gmm-est's names.
func (o *EstOptions) Register(fs *flag.FlagSet) {
	o.MixUp.Register(fs)
	fs.StringVar(&o.WriteOccs, "write-occs", o.WriteOccs, "File to write pdf occupation counts to.")
	fs.StringVar(&o.UpdateFlags, "update-flags", o.UpdateFlags, "Which GMM parameters to update: subset of mvwt.")
	o.Gmm.Register(fs)
	o.Transitions.Register(fs)
}

// Validate checks the update flags.
func (o *EstOptions) Validate() error {
	_, err := ParseFlags(o.UpdateFlags)
	return err
}

// InitMonoOptions are gmm-init-mono's options.
type InitMonoOptions struct {
	TrainFeats   string // --train-feats: rspecifier of the features whose mean and variance the Gaussians start at
	SharedPhones string // --shared-phones: rxfilename of the sets of phones that share pdfs, one a line
}

// Register adds the options to fs under Kaldi's names.
func (o *InitMonoOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.TrainFeats, "train-feats", o.TrainFeats, "rspecifier for training features [used to set mean and variance]")
	fs.StringVar(&o.SharedPhones, "shared-phones", o.SharedPhones, "rxfilename containing, on each line, a list of phones whose pdfs should be shared.")
}

// InitModelOptions are gmm-init-model's options.
type InitModelOptions struct {
	WriteOccs string  // --write-occs: wxfilename of the state occupancies; "" for none
	VarFloor  float64 // --var-floor: variance floor of the new Gaussians
}

// DefaultInitModelOptions are Kaldi's defaults.
func DefaultInitModelOptions() InitModelOptions { return InitModelOptions{VarFloor: 0.01} }

// Register adds the options to fs under Kaldi's names.
func (o *InitModelOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.WriteOccs, "write-occs", o.WriteOccs, "File to write state occupancies to.")
	fs.Float64Var(&o.VarFloor, "var-floor", o.VarFloor, "Variance floor used while initializing Gaussians")
}

// CopyOptions are gmm-copy's options: the output format and which parts
// of the model are written.
type CopyOptions struct {
	Binary bool // --binary
	CopyAM bool // --copy-am: the AmDiagGmm
	CopyTM bool // --copy-tm: the transition model
}

// DefaultCopyOptions copy the whole model, in binary.
func DefaultCopyOptions() CopyOptions { return CopyOptions{Binary: true, CopyAM: true, CopyTM: true} }

// Register adds the options to fs under Kaldi's names.
func (o *CopyOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.Binary, "binary", o.Binary, "Write output in binary mode")
	fs.BoolVar(&o.CopyAM, "copy-am", o.CopyAM, "Copy the acoustic model (AmDiagGmm object)")
	fs.BoolVar(&o.CopyTM, "copy-tm", o.CopyTM, "Copy the transition model")
}

// CopyCodec writes what o selects of a model, the transition model first
// (both false leaves just the binary header, as in Kaldi); it reads whole
// models.
func CopyCodec(o CopyOptions) kaldiio.Codec[Model] { return copyCodec{am: o.CopyAM, tm: o.CopyTM} }

type copyCodec struct{ am, tm bool }

func (copyCodec) Read(r *kaldiio.Reader, binary bool, m *Model) error {
	return ModelCodec.Read(r, binary, m)
}

func (c copyCodec) Write(w *kaldiio.Writer, binary bool, m *Model) error {
	if c.tm {
		if err := hmm.TransitionModelCodec.Write(w, binary, &m.Trans); err != nil {
			return err
		}
	}
	if c.am {
		return AmDiagGmmCodec.Write(w, binary, &m.AM)
	}
	return nil
}
