package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-post-to-gpost",
		Summary:     "Convert state-level posteriors to Gaussian-level posteriors",
		Description: "Convert state-level posteriors to Gaussian-level posteriors",
		ArgsUsage:   "<model-in> <feature-rspecifier> <posteriors-rspecifier> <gpost-wspecifier>",
		Examples:    []string{"strode gmm-post-to-gpost 1.mdl scp:train.scp ark:1.post ark:1.gpost"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			// Kaldi registers --binary but writes a table, whose
			// wspecifier (",t") chooses text or binary.
			fs.Bool("binary", false, "Write output in binary mode (unused: the table wspecifier decides)")
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.GmmPostToGpost(transformEnv(ctx), ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), ctx.Arg(3)))
			}
		},
	})
}
