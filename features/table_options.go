package features

import (
	"flag"
	"fmt"
)

// ComputeCmvnStatsOptions are compute-cmvn-stats' options.
type ComputeCmvnStatsOptions struct {
	Spk2utt string // --spk2utt: per-speaker statistics; "" for per utterance
	Weights string // --weights: rspecifier of per-frame weights; "" for none
	Binary  bool   // --binary: only for the global statistics of a wxfilename
}

// DefaultComputeCmvnStatsOptions are Kaldi's defaults.
func DefaultComputeCmvnStatsOptions() ComputeCmvnStatsOptions {
	return ComputeCmvnStatsOptions{Binary: true}
}

// Register adds the options to fs under Kaldi's names.
func (o *ComputeCmvnStatsOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Spk2utt, "spk2utt", o.Spk2utt, "rspecifier for speaker to utterance-list map")
	fs.BoolVar(&o.Binary, "binary", o.Binary, "write in binary mode (applies only to global CMN/CVN)")
	fs.StringVar(&o.Weights, "weights", o.Weights, "rspecifier for a vector of floats for each utterance, that's a per-frame weight.")
}

// DefaultApplyCmvnOptions are Kaldi's defaults: means only, per utterance.
func DefaultApplyCmvnOptions() ApplyCmvnOptions { return ApplyCmvnOptions{NormMeans: true} }

// Register adds the options to fs under Kaldi's names.
func (o *ApplyCmvnOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Utt2spk, "utt2spk", o.Utt2spk, "rspecifier for utterance to speaker map")
	fs.BoolVar(&o.NormVars, "norm-vars", o.NormVars, "If true, normalize variances.")
	fs.BoolVar(&o.Reverse, "reverse", o.Reverse, "If true, apply CMVN in a reverse sense, so as to transform zero-mean, unit-variance input into data with the given mean and variance.")
	fs.BoolVar(&o.NormMeans, "norm-means", o.NormMeans, "You can set this to false to turn off mean normalization.  Note, the same can be achieved by using 'fake' CMVN stats; but this option allows you to not have to compute those stats.")
}

// AddDeltasOptions are add-deltas' options: the deltas and a truncation
// of the features before them.
type AddDeltasOptions struct {
	Delta    DeltaFeaturesOptions
	Truncate int // --truncate: keep this many leading dimensions first; 0 keeps all
}

// DefaultAddDeltasOptions are Kaldi's defaults.
func DefaultAddDeltasOptions() AddDeltasOptions {
	return AddDeltasOptions{Delta: DefaultDeltaFeaturesOptions()}
}

// Register adds the options to fs under Kaldi's names.
func (o *AddDeltasOptions) Register(fs *flag.FlagSet) {
	o.Delta.Register(fs)
	fs.IntVar(&o.Truncate, "truncate", o.Truncate, "If nonzero, first truncate features to this dimension.")
}

// Validate checks the truncation.
func (o *AddDeltasOptions) Validate() error {
	if o.Truncate < 0 {
		return fmt.Errorf("--truncate=%d must not be negative", o.Truncate)
	}
	return nil
}

// SpliceOptions are splice-feats' options: the frames of context on each
// side.
type SpliceOptions struct {
	LeftContext, RightContext int
}

// DefaultSpliceOptions are Kaldi's defaults: 4 frames each side.
func DefaultSpliceOptions() SpliceOptions { return SpliceOptions{LeftContext: 4, RightContext: 4} }

// Register adds the options to fs under Kaldi's names.
func (o *SpliceOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.LeftContext, "left-context", o.LeftContext, "Number of frames of left context")
	fs.IntVar(&o.RightContext, "right-context", o.RightContext, "Number of frames of right context")
}
