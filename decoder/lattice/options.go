package lattice

import (
	"errors"
	"flag"
	"fmt"
	"strconv"
	"strings"
)

// The options of the word-level commands (lattice-1best, lattice-best-path,
// lattice-to-nbest, nbest-to-ctm, lattice-to-ctm-conf, lattice-align-words,
// lattice-align-words-lexicon, lattice-oracle) with Kaldi's names, help and
// defaults.

// OneBestOptions are lattice-1best's options.
type OneBestOptions struct {
	AcousticScale  float64 // --acoustic-scale
	LMScale        float64 // --lm-scale
	WordInsPenalty float64 // --word-ins-penalty: added to each word's graph cost while searching (when positive)
}

// DefaultOneBestOptions are Kaldi's: unit scales, no penalty.
func DefaultOneBestOptions() OneBestOptions { return OneBestOptions{AcousticScale: 1, LMScale: 1} }

// Register adds the options to fs under Kaldi's names.
func (o *OneBestOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.AcousticScale, "acoustic-scale", o.AcousticScale, "Scaling factor for acoustic likelihoods")
	fs.Float64Var(&o.LMScale, "lm-scale", o.LMScale, "Scaling factor for language model scores.")
	fs.Float64Var(&o.WordInsPenalty, "word-ins-penalty", o.WordInsPenalty, "Word insertion penality.")
}

// Validate refuses a zero scale, which BestPath could not undo.
func (o *OneBestOptions) Validate() error {
	if float32(o.AcousticScale) == 0 || float32(o.LMScale) == 0 {
		return errors.New("Do not use exactly zero acoustic or LM scale (cannot be inverted)")
	}
	return nil
}

// BestPath is lattice-1best's work on one lattice, which it scales: add
// the penalty (when positive, as Kaldi), take the best path, then undo the
// penalty and the scaling so the path carries its original costs (up to
// float rounding, as Kaldi's).
func (o *OneBestOptions) BestPath(c *CompactLattice) (*CompactLattice, error) {
	lm, ac, pen := float32(o.LMScale), float32(o.AcousticScale), float32(o.WordInsPenalty)
	c.Scale(LatticeScale(lm, ac))
	if pen > 0 {
		c.AddWordInsPenalty(pen)
	}
	best, err := c.ShortestPath()
	if err != nil {
		return nil, err
	}
	if pen > 0 {
		best.AddWordInsPenalty(-pen)
	}
	best.Scale(inverseScale(lm, ac))
	return best, nil
}

// inverseScale undoes LatticeScale(lm, ac).
func inverseScale(lm, ac float32) [2][2]float64 {
	return [2][2]float64{{1 / float64(lm), 0}, {0, 1 / float64(ac)}}
}

// BestPathOptions are lattice-best-path's options.
type BestPathOptions struct {
	AcousticScale   float64 // --acoustic-scale
	LMScale         float64 // --lm-scale
	WordSymbolTable string  // --word-symbol-table: print the words to stderr
	WriteLattices   string  // --write-lattices: wspecifier for the best paths as lattices
}

// DefaultBestPathOptions are Kaldi's: unit scales, no extra outputs.
func DefaultBestPathOptions() BestPathOptions { return BestPathOptions{AcousticScale: 1, LMScale: 1} }

// Register adds the options to fs under Kaldi's names.
func (o *BestPathOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.AcousticScale, "acoustic-scale", o.AcousticScale, "Scaling factor for acoustic likelihoods")
	fs.Float64Var(&o.LMScale, "lm-scale", o.LMScale, "Scaling factor for LM probabilities. Note: the ratio acoustic-scale/lm-scale is all that matters.")
	fs.StringVar(&o.WordSymbolTable, "word-symbol-table", o.WordSymbolTable, "Symbol table for words [for debug output]")
	fs.StringVar(&o.WriteLattices, "write-lattices", o.WriteLattices, "If supplied, write 1-best path as lattices to this wspecifier")
}

// NbestOptions are lattice-to-nbest's options.
type NbestOptions struct {
	AcousticScale float64 // --acoustic-scale
	LMScale       float64 // --lm-scale
	N             int     // --n: number of distinct paths
	Random        bool    // --random: n random paths (refused by Validate)
	Srand         int     // --srand: the seed for --random
}

// DefaultNbestOptions are Kaldi's: unit scales, one path.
func DefaultNbestOptions() NbestOptions { return NbestOptions{AcousticScale: 1, LMScale: 1, N: 1} }

// Register adds the options to fs under Kaldi's names.
func (o *NbestOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.AcousticScale, "acoustic-scale", o.AcousticScale, "Scaling factor for acoustic likelihoods")
	fs.Float64Var(&o.LMScale, "lm-scale", o.LMScale, "Scaling factor for language model scores.")
	fs.IntVar(&o.N, "n", o.N, "Number of distinct paths")
	fs.BoolVar(&o.Random, "random", o.Random, "If true, generate n random paths instead of n-best paths (not supported by strode)")
	fs.IntVar(&o.Srand, "srand", o.Srand, "Seed for random number generator (only relevant if --random=true)")
}

// Validate refuses n < 1, --random and a zero scale (which NBest could not
// undo).
func (o *NbestOptions) Validate() error {
	if o.N <= 0 {
		return fmt.Errorf("--n must be positive, got %d", o.N)
	}
	if o.Random {
		return errors.New("--random=true (random paths) is not supported by strode; use the n best paths")
	}
	if float32(o.AcousticScale) == 0 || float32(o.LMScale) == 0 {
		return errors.New("Do not use a zero acoustic or LM scale (cannot be inverted)")
	}
	return nil
}

// NBest is lattice-to-nbest's work on one lattice, which it scales: the N
// best paths of the scaled lattice, best first, each scaled back to the
// lattice's original costs.
func (o *NbestOptions) NBest(c *CompactLattice) ([]*CompactLattice, error) {
	lm, ac := float32(o.LMScale), float32(o.AcousticScale)
	c.Scale(LatticeScale(lm, ac))
	nbest, err := c.NBest(o.N)
	if err != nil {
		return nil, err
	}
	for _, p := range nbest {
		p.Scale(inverseScale(lm, ac))
	}
	return nbest, nil
}

// CtmOptions are nbest-to-ctm's options.
type CtmOptions struct {
	FrameShift   float64 // --frame-shift: seconds per frame
	Precision    int     // --precision: decimal places of the times
	PrintSilence bool    // --print-silence: print the <eps> (optional-silence) arcs
}

// DefaultCtmOptions are Kaldi's: 10 ms frames, two decimals, no silence.
func DefaultCtmOptions() CtmOptions { return CtmOptions{FrameShift: 0.01, Precision: 2} }

// Register adds the options to fs under Kaldi's names.
func (o *CtmOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.FrameShift, "frame-shift", o.FrameShift, "Time in seconds between frames.")
	fs.IntVar(&o.Precision, "precision", o.Precision, "Number of decimal places for start duration times")
	fs.BoolVar(&o.PrintSilence, "print-silence", o.PrintSilence, "If true, print optional-silence (<eps>) arcs")
}

// Validate refuses a negative precision.
func (o *CtmOptions) Validate() error {
	if o.Precision < 0 {
		return fmt.Errorf("--precision must not be negative, got %d", o.Precision)
	}
	return nil
}

// MBROptions are lattice-to-ctm-conf's options: the scales, the frame
// shift of the times and whether to decode (Kaldi's MinimumBayesRisk).
type MBROptions struct {
	AcousticScale    float64 // --acoustic-scale
	InvAcousticScale float64 // --inv-acoustic-scale: the acoustic scale's inverse, another way to set it
	LMScale          float64 // --lm-scale
	FrameShift       float64 // --frame-shift: seconds per frame
	DecodeMBR        bool    // --decode-mbr: refine the hypothesis (else keep the 1-best, MAP)
}

// DefaultMBROptions are Kaldi's: unit scales, 10 ms frames, MBR decoding.
func DefaultMBROptions() MBROptions {
	return MBROptions{AcousticScale: 1, InvAcousticScale: 1, LMScale: 1, FrameShift: 0.01, DecodeMBR: true}
}

// Register adds the options to fs under Kaldi's names.
func (o *MBROptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.AcousticScale, "acoustic-scale", o.AcousticScale, "Scaling factor for acoustic likelihoods")
	fs.Float64Var(&o.InvAcousticScale, "inv-acoustic-scale", o.InvAcousticScale, "An alternative way of setting the acoustic scale: you can set its inverse.")
	fs.Float64Var(&o.LMScale, "lm-scale", o.LMScale, "Scaling factor for language model probabilities")
	fs.Float64Var(&o.FrameShift, "frame-shift", o.FrameShift, "Time in seconds between frames.")
	fs.BoolVar(&o.DecodeMBR, "decode-mbr", o.DecodeMBR, "If true, do Minimum Bayes Risk decoding (else, Maximum a Posteriori)")
}

// Validate refuses an acoustic scale set both ways.
func (o *MBROptions) Validate() error {
	if o.AcousticScale != 1 && o.InvAcousticScale != 1 {
		return errors.New("Only one of --acoustic-scale and --inv-acoustic-scale may be set")
	}
	return nil
}

// MBR is lattice-to-ctm-conf's work on one lattice, which it scales: MBR
// decoding (or, without DecodeMBR, the confidences of the hypothesis) from
// init, or from the best path when init is nil, as NewMBR.
func (o *MBROptions) MBR(c *CompactLattice, init []int32) (*MBR, error) {
	ac := float32(o.AcousticScale)
	if o.InvAcousticScale != 1 {
		ac = float32(1 / float32(o.InvAcousticScale))
	}
	c.Scale(LatticeScale(float32(o.LMScale), ac))
	return NewMBR(c, init, o.DecodeMBR)
}

// WordAlignOptions are lattice-align-words' options (Kaldi's
// WordBoundaryInfoNewOpts and the command's own).
type WordAlignOptions struct {
	OutputErrorLats  bool // --output-error-lats: write what aligned of a lattice that aligned with errors
	Test             bool // --test: check each aligned lattice against its input
	SilenceLabel     int  // --silence-label: the word label of silence arcs
	PartialWordLabel int  // --partial-word-label: the word label of a word cut off by a forced-out end
	Reorder          bool // --reorder: self-loops follow the final transition (the graphs' --reorder)
}

// DefaultWordAlignOptions are Kaldi's.
func DefaultWordAlignOptions() WordAlignOptions {
	return WordAlignOptions{OutputErrorLats: true, Reorder: true}
}

// Register adds the options to fs under Kaldi's names.
func (o *WordAlignOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.OutputErrorLats, "output-error-lats", o.OutputErrorLats, "Output lattices that aligned with errors (e.g. due to force-out")
	fs.BoolVar(&o.Test, "test", o.Test, "Test the algorithm while running it.")
	fs.IntVar(&o.SilenceLabel, "silence-label", o.SilenceLabel, "Numeric id of word symbol that is to be used for silence arcs in the word-aligned lattice (zero is OK)")
	fs.IntVar(&o.PartialWordLabel, "partial-word-label", o.PartialWordLabel, "Numeric id of word symbol that is to be used for arcs in the word-aligned lattice corresponding to partial words at the end of \"forced-out\" utterances (zero is OK)")
	fs.BoolVar(&o.Reorder, "reorder", o.Reorder, "True if the lattices were generated from graphs that had the --reorder option true, relating to reordering self-loops (typically true)")
}

// Apply sets info's options.
func (o *WordAlignOptions) Apply(info *WordBoundaryInfo) {
	info.Reorder, info.SilenceLabel, info.PartialWordLabel = o.Reorder, int32(o.SilenceLabel), int32(o.PartialWordLabel)
}

// WordAlignLexiconOptions are lattice-align-words-lexicon's options
// (Kaldi's WordAlignLatticeLexiconOpts and the command's own).
type WordAlignLexiconOptions struct {
	OutputErrorLats     bool    // --output-error-lats: write what aligned of a lattice that aligned with errors
	OutputIfEmpty       bool    // --output-if-empty: pass the input through when nothing aligned
	Test                bool    // --test: check each aligned lattice against its input
	AllowDuplicatePaths bool    // --allow-duplicate-paths: accepted; only for Kaldi's --test
	PartialWordLabel    int     // --partial-word-label: the word label of a word cut off by a forced-out end
	Reorder             bool    // --reorder: self-loops follow the final transition (the graphs' --reorder)
	MaxExpand           float64 // --max-expand: accepted; strode does not limit the expansion
}

// DefaultWordAlignLexiconOptions are Kaldi's.
func DefaultWordAlignLexiconOptions() WordAlignLexiconOptions {
	return WordAlignLexiconOptions{OutputErrorLats: true, Reorder: true}
}

// Register adds the options to fs under Kaldi's names.
func (o *WordAlignLexiconOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.OutputErrorLats, "output-error-lats", o.OutputErrorLats, "Output lattices that aligned with errors (e.g. due to force-out")
	fs.BoolVar(&o.OutputIfEmpty, "output-if-empty", o.OutputIfEmpty, "If true: if algorithm gives error and produces empty output, pass the input through.")
	fs.BoolVar(&o.Test, "test", o.Test, "If true, testing code will be activated (the purpose of this is to validate the algorithm).")
	fs.BoolVar(&o.AllowDuplicatePaths, "allow-duplicate-paths", o.AllowDuplicatePaths, "Only has an effect if --test=true.  If true, does not die (only prints warnings) if duplicate paths are found.")
	fs.IntVar(&o.PartialWordLabel, "partial-word-label", o.PartialWordLabel, "Numeric id of word symbol that is to be used for arcs in the word-aligned lattice corresponding to partial words at the end of \"forced-out\" utterances (zero is OK)")
	fs.BoolVar(&o.Reorder, "reorder", o.Reorder, "True if the lattices were generated from graphs that had the --reorder option true, relating to reordering self-loops (typically true)")
	fs.Float64Var(&o.MaxExpand, "max-expand", o.MaxExpand, "If >0.0, the maximum ratio by which we allow the lattice-alignment code to increase the #states in a lattice (vs. the phone-aligned lattice) before we fail and output nothing.")
}

// Apply sets lex's options.
func (o *WordAlignLexiconOptions) Apply(lex *LexiconInfo) {
	lex.Reorder, lex.PartialWordLabel = o.Reorder, int32(o.PartialWordLabel)
}

// OracleOptions are lattice-oracle's options.
type OracleOptions struct {
	WordSymbolTable     string // --word-symbol-table: print oracle and reference words to stderr
	WildcardSymbolsList string // --wildcard-symbols-list: file of symbols that are no errors (deprecated)
	WildcardSymbols     string // --wildcard-symbols: colon-separated ids of words that are no errors
	WriteLattices       string // --write-lattices: wspecifier for the oracle paths as lattices
}

// Register adds the options to fs under Kaldi's names.
func (o *OracleOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.WordSymbolTable, "word-symbol-table", o.WordSymbolTable, "Symbol table for words [for debug output]")
	fs.StringVar(&o.WildcardSymbolsList, "wildcard-symbols-list", o.WildcardSymbolsList, "Filename (generally rxfilename) for file containing text-form list of symbols that don't count as errors; this option requires --word-symbol-table. Deprecated; use --wildcard-symbols option.")
	fs.StringVar(&o.WildcardSymbols, "wildcard-symbols", o.WildcardSymbols, "Colon-separated list of integer ids of symbols that don't count as errors.  Preferred alternative to deprecated option --wildcard-symbols-list.")
	fs.StringVar(&o.WriteLattices, "write-lattices", o.WriteLattices, "If supplied, write the lattice that contains only the oracle path to the given wspecifier.")
}

// Validate refuses both ways of giving wildcards, and a wildcard list
// without the symbol table that reads it.
func (o *OracleOptions) Validate() error {
	if o.WildcardSymbolsList == "" {
		return nil
	}
	if o.WildcardSymbols != "" {
		return errors.New("Do not use both --wildcard-symbols and --wildcard-symbols-list options.")
	}
	if o.WordSymbolTable == "" {
		return errors.New("--wildcard-symbols-list option requires --word-symbol-table option")
	}
	return nil
}

// Wildcards adds the word ids of --wildcard-symbols to set.
func (o *OracleOptions) Wildcards(set map[int32]bool) error {
	if o.WildcardSymbols == "" {
		return nil
	}
	for _, s := range strings.Split(o.WildcardSymbols, ":") {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil {
			return fmt.Errorf("Expected colon-separated list of integers for --wildcard-symbols option, got: %s", o.WildcardSymbols)
		}
		set[int32(v)] = true
	}
	return nil
}
