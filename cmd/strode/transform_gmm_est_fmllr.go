package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-est-fmllr",
		Summary:     "Estimate global fMLLR transforms",
		Description: "Estimate global fMLLR transforms, either per utterance or for the supplied\nset of speakers (spk2utt option).  Reads posteriors (on transition-ids).  Writes\nto a table of matrices. A speaker (or utterance) with no more than --fmllr-min-count\nframes gets the identity [I|0], with a warning.",
		ArgsUsage:   "<model-in> <feature-rspecifier> <post-rspecifier> <transform-wspecifier>",
		Examples:    []string{"strode gmm-est-fmllr --spk2utt=ark:data/train/spk2utt 1.mdl scp:feats.scp ark:1.post ark:trans.1"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := transform.DefaultEstFmllrOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.GmmEstFmllr(transformEnv(ctx), o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), ctx.Arg(3)))
			}
		},
	})
}
