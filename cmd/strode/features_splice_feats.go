package main

import (
	"flag"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "splice-feats",
		Summary:     "Splice features with left and right context",
		Description: "Splice features with left and right context (e.g. prior to LDA); frames beyond the edges repeat the first and last frames.",
		ArgsUsage:   "<feature-rspecifier> <feature-wspecifier>",
		Examples:    []string{"strode splice-feats --left-context=4 --right-context=4 scp:feats.scp ark:-"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := features.DefaultSpliceOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				_, err := features.MapFeatures(ctx.Arg(0), ctx.Arg(1), func(key string, m kaldiio.Matrix) (kaldiio.Matrix, bool, error) {
					out, err := features.SpliceFrames(m.Data, m.Rows, m.Cols, o.LeftContext, o.RightContext)
					if err != nil {
						return m, false, err
					}
					return kaldiio.Matrix{Rows: m.Rows, Cols: m.Cols * (1 + o.LeftContext + o.RightContext), Data: out}, true, nil
				}, tableStreams(ctx)...)
				return err
			}
		},
	})
}
