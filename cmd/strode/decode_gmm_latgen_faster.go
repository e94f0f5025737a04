package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
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
			f := registerLatgenFlags(fs)
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
				return latgen(ctx, f.opts, float32(f.acwt), f.wordSyms, f.allowPartial, likes)
			}
		},
	})
}
