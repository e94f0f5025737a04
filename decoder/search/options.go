package search

import (
	"flag"
	"math"
)

// Options are Kaldi's LatticeFasterDecoderConfig (and the determinization
// options latgen registers), with Kaldi's names and defaults.
type Options struct {
	Beam               float64 // --beam
	MaxActive          int     // --max-active
	MinActive          int     // --min-active
	LatticeBeam        float64 // --lattice-beam
	PruneInterval      int     // --prune-interval (links are pruned every pruneEvery-th interval; see pruneActiveTokens)
	DeterminizeLattice bool    // --determinize-lattice
	BeamDelta          float64 // --beam-delta
	HashRatio          float64 // --hash-ratio (accepted; the dense state table needs no hash)
	PruneScale         float64 // not a command-line option in Kaldi either
	Delta              float64 // --delta: determinization tolerance
	MaxMem             int     // --max-mem: the lattice determinization's memory bound (lattice.DeterminizeOptions)
	PhoneDeterminize   bool    // --phone-determinize (accepted; one word-level pass gives the same lattice)
	WordDeterminize    bool    // --word-determinize
	Minimize           bool    // --minimize (accepted; not implemented)
}

// DefaultOptions are Kaldi's defaults.
func DefaultOptions() Options {
	return Options{
		Beam: 16, MaxActive: math.MaxInt32, MinActive: 200, LatticeBeam: 10,
		PruneInterval: 25, DeterminizeLattice: true, BeamDelta: 0.5, HashRatio: 2,
		PruneScale: 0.1, Delta: 1.0 / 1024, MaxMem: 50000000,
		PhoneDeterminize: true, WordDeterminize: true,
	}
}

// Register adds the options to fs with Kaldi's names and help texts.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.Beam, "beam", o.Beam, "Decoding beam.  Larger->slower, more accurate.")
	fs.IntVar(&o.MaxActive, "max-active", o.MaxActive, "Decoder max active states.  Larger->slower; more accurate")
	fs.IntVar(&o.MinActive, "min-active", o.MinActive, "Decoder minimum #active states.")
	fs.Float64Var(&o.LatticeBeam, "lattice-beam", o.LatticeBeam, "Lattice generation beam.  Larger->slower, and deeper lattices")
	fs.IntVar(&o.PruneInterval, "prune-interval", o.PruneInterval, "Interval (in frames) at which to prune tokens (strode prunes the lattice links at every fourth interval: the lattices are the same, fewer passes over old frames)")
	fs.BoolVar(&o.DeterminizeLattice, "determinize-lattice", o.DeterminizeLattice, "If true, determinize the lattice (lattice-determinization, keeping only best pdf-sequence for each word-sequence).")
	fs.Float64Var(&o.BeamDelta, "beam-delta", o.BeamDelta, "Increment used in decoding-- this parameter is obscure and relates to a speedup in the way the max-active constraint is applied.  Larger is more accurate.")
	fs.Float64Var(&o.HashRatio, "hash-ratio", o.HashRatio, "Setting used in decoder to control hash behavior")
	fs.Float64Var(&o.Delta, "delta", o.Delta, "Tolerance used in determinization")
	fs.IntVar(&o.MaxMem, "max-mem", o.MaxMem, "Maximum approximate memory usage in determinization (real usage might be many times this).")
	fs.BoolVar(&o.PhoneDeterminize, "phone-determinize", o.PhoneDeterminize, "If true, do an initial pass of determinization on both phones and words (see also --word-determinize)")
	fs.BoolVar(&o.WordDeterminize, "word-determinize", o.WordDeterminize, "If true, do a second pass of determinization on words only (see also --phone-determinize)")
	fs.BoolVar(&o.Minimize, "minimize", o.Minimize, "If true, push and minimize after determinization.")
}

// FasterOptions are Kaldi's FasterDecoderOptions (decode-faster-mapped).
type FasterOptions struct {
	Beam      float64 // --beam
	MaxActive int     // --max-active
	MinActive int     // --min-active
	BeamDelta float64 // --beam-delta
	HashRatio float64 // --hash-ratio
}

// DefaultFasterOptions are Kaldi's defaults.
func DefaultFasterOptions() FasterOptions {
	return FasterOptions{Beam: 16, MaxActive: math.MaxInt32, MinActive: 20, BeamDelta: 0.5, HashRatio: 2}
}

// Register adds the options to fs with Kaldi's names.
func (o *FasterOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.Beam, "beam", o.Beam, "Decoding beam.  Larger->slower, more accurate.")
	fs.IntVar(&o.MaxActive, "max-active", o.MaxActive, "Decoder max active states.  Larger->slower; more accurate")
	fs.IntVar(&o.MinActive, "min-active", o.MinActive, "Decoder min active states (don't prune if #active less than this).")
	fs.Float64Var(&o.BeamDelta, "beam-delta", o.BeamDelta, "Increment used in decoder [obscure setting]")
	fs.Float64Var(&o.HashRatio, "hash-ratio", o.HashRatio, "Setting used in decoder to control hash behavior")
}
