package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-est-fmllr-gpost",
		Summary:     "Estimate global fMLLR transforms from Gaussian-level posteriors",
		Description: "Estimate global fMLLR transforms, either per utterance or for the supplied\nset of speakers (spk2utt option).  Reads Gaussian-level posteriors.  Writes\nto a table of matrices.",
		ArgsUsage:   "<model-in> <feature-rspecifier> <gpost-rspecifier> <transform-wspecifier>",
		Examples:    []string{"strode gmm-est-fmllr-gpost --spk2utt=ark:data/train/spk2utt 1.mdl scp:feats.scp ark:1.gpost ark:trans.1"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := transform.DefaultEstFmllrOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.GmmEstFmllrGpost(transformEnv(ctx), o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), ctx.Arg(3)))
			}
		},
	})
}
