package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/decoder/lm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "lattice-lmrescore-const-arpa",
		Summary: "Rescore lattices with a ConstArpaLm language model (G.carpa)",
		Description: "Rescores lattice with the ConstArpaLm format language model. The LM\n" +
			"will be wrapped into the DeterministicOnDemandFst interface and the\n" +
			"rescoring is done by composing with the wrapped LM using a special\n" +
			"type of composition algorithm. Determinization will be applied on\n" +
			"the composed lattice.",
		ArgsUsage: "<lattice-rspecifier> <const-arpa-in> <lattice-wspecifier>",
		Examples:  []string{"strode lattice-lmrescore-const-arpa --lm-scale=1.0 ark:in.lats data/lang_test_tg/G.carpa ark:out.lats"},
		MinArgs:   3,
		MaxArgs:   3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var lmScale float64 = 1
			writeCompact, determinize := true, true
			fs.BoolVar(&writeCompact, "write-compact", writeCompact, "If true, write in normal (compact) form.")
			fs.BoolVar(&determinize, "determinize", determinize, "If false, then the output will retain all the non-deterministic paths in the original lattice, but rescored with LM score from the best path in the LM")
			fs.Float64Var(&lmScale, "lm-scale", lmScale, "Scaling factor for language model costs; frequently 1.0 or -1.0")
			return func(ctx *kaldicmd.Context) error {
				if !writeCompact {
					return errWriteCompact
				}
				carpa, err := readConstArpa(ctx, ctx.Arg(1))
				if err != nil {
					return err
				}
				opts := lattice.RescoreOptions{LMScale: float32(lmScale), Determinize: determinize}
				src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer src.Close()
				return rescoreLattices(ctx, ctx.Arg(2), src.Next, src.Err, func() (string, *lattice.CompactLattice, error) {
					clat := src.Value()
					if opts.LMScale == 0 {
						return src.Key(), &clat, nil
					}
					// A fresh on-demand FST per lattice, as Kaldi makes one, so
					// that its table of histories does not grow without bound.
					out, err := lattice.RescoreDeterministic(&clat, lm.NewConstArpaFst(carpa), opts)
					return src.Key(), out, err
				})
			}
		},
	})
}

// readConstArpa reads a G.carpa from a Kaldi rxfilename (file, "-" or
// "cmd |").
func readConstArpa(ctx *kaldicmd.Context, rx string) (*lm.ConstArpa, error) {
	in, err := kaldiio.OpenInput(rx, tableStreams(ctx)...)
	if err != nil {
		return nil, err
	}
	c, err := lm.ReadConstArpa(in.Reader(), rx)
	if cerr := in.Close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return nil, fmt.Errorf("reading ConstArpaLm %s: %w", rx, err)
	}
	return c, nil
}
