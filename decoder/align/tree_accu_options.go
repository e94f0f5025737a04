package align

import (
	"flag"
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/kaldiio"
)

// AccumulateTreeStatsOptions are acc-tree-stats' options as given on the
// command line (Kaldi's AccumulateTreeStatsOptions): the context-independent
// phones as a colon-separated list and the phone map as a file, which
// Resolve turns into the AccumulateOptions the Accumulator takes.
type AccumulateTreeStatsOptions struct {
	VarFloor        float64 // --var-floor
	CIPhones        string  // --ci-phones: colon-separated, after mapping
	PhoneMap        string  // --phone-map: rxfilename of "old new" lines; "" for none
	ContextWidth    int     // --context-width, N
	CentralPosition int     // --central-position, P
}

// DefaultAccumulateTreeStatsOptions are Kaldi's defaults: a triphone window.
func DefaultAccumulateTreeStatsOptions() AccumulateTreeStatsOptions {
	return AccumulateTreeStatsOptions{VarFloor: 0.01, ContextWidth: 3, CentralPosition: 1}
}

// Register adds the options to fs under Kaldi's names.
func (o *AccumulateTreeStatsOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.VarFloor, "var-floor", o.VarFloor, "Variance floor for tree clustering.")
	fs.StringVar(&o.CIPhones, "ci-phones", o.CIPhones, "Colon-separated list of integer indices of context-independent phones (after mapping, if --phone-map option is used).")
	fs.IntVar(&o.ContextWidth, "context-width", o.ContextWidth, "Context window size.")
	fs.IntVar(&o.CentralPosition, "central-position", o.CentralPosition, "Central context-window position (zero-based)")
	fs.StringVar(&o.PhoneMap, "phone-map", o.PhoneMap, "File name containing old->new phone mapping (each line is: old-integer-id new-integer-id)")
}

// Resolve parses the context-independent phones (positive, no repeats) and
// reads the phone map (Kaldi's AccumulateTreeStatsInfo); streams are for a
// phone map read from a pipe or standard input.
func (o *AccumulateTreeStatsOptions) Resolve(streams ...kaldiio.Option) (AccumulateOptions, error) {
	opts := AccumulateOptions{VarFloor: float32(o.VarFloor), ContextWidth: o.ContextWidth, CentralPosition: o.CentralPosition}
	ci, err := tree.ParseCSL(o.CIPhones)
	if err != nil {
		return opts, err
	}
	slices.Sort(ci)
	if len(ci) > 0 && (ci[0] <= 0 || len(slices.Compact(slices.Clone(ci))) != len(ci)) {
		return opts, fmt.Errorf("invalid set of ci_phones: %s", o.CIPhones)
	}
	opts.CIPhones = ci
	if o.PhoneMap != "" {
		if opts.PhoneMap, err = tree.ReadPhoneMap(o.PhoneMap, streams...); err != nil {
			return opts, err
		}
	}
	return opts, nil
}
