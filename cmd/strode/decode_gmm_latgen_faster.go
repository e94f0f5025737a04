package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/decoder/search"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-latgen-faster",
		Summary:     "Generate lattices using a GMM-based model",
		Description: "Generate lattices using GMM-based model.\n(gmm-compute-likes | latgen-faster-mapped in one: each utterance's features scored\nby every pdf of the model, then decoded as latgen-faster-mapped decodes)",
		ArgsUsage:   "<model-in> <fst-in> <features-rspecifier> <lattice-wspecifier> [ <words-wspecifier> [<alignments-wspecifier>] ]",
		Examples:    []string{"strode gmm-latgen-faster --acoustic-scale=0.083333 --word-symbol-table=words.txt final.mdl HCLG.fst scp:feats.scp 'ark:|gzip -c > lat.1.gz'"},
		MinArgs:     4,
		MaxArgs:     6,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			opts := search.DefaultOptions()
			opts.Register(fs)
			acwt := 0.1
			var wordSyms string
			allowPartial := false
			fs.Float64Var(&acwt, "acoustic-scale", acwt, "Scaling factor for acoustic likelihoods")
			fs.StringVar(&wordSyms, "word-symbol-table", "", "Symbol table for words [for debug output]")
			fs.BoolVar(&allowPartial, "allow-partial", allowPartial, "If true, produce output even if end state was not reached.")
			return func(ctx *kaldicmd.Context) error {
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				var out kaldiio.Matrix
				likes := func(utt string, x kaldiio.Matrix) (kaldiio.Matrix, error) {
					if x.Cols != m.AM.Dim {
						return out, fmt.Errorf("utterance %s in %s: features have dimension %d, the model %s has %d", utt, ctx.Arg(2), x.Cols, ctx.Arg(0), m.AM.Dim)
					}
					if err := m.AM.LogLikelihoods(&x, &out); err != nil {
						return out, fmt.Errorf("utterance %s: %w", utt, err)
					}
					return out, nil
				}
				return latgen(ctx, opts, float32(acwt), wordSyms, allowPartial, likes)
			}
		},
	})
}
