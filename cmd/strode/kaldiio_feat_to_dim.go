package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "feat-to-dim",
		Summary: "Write the feature dimension (of the first matrix, or per utterance)",
		Description: "Reads an archive of features.  If second argument is wxfilename, writes\n" +
			"the feature dimension of the first feature file; if second argument is\n" +
			"wspecifier, writes an archive of the feature dimension, indexed by utterance\n" +
			"id.\n" +
			"Usage: feat-to-dim [options] <feat-rspecifier> (<dim-wspecifier>|<dim-wxfilename>)",
		ArgsUsage: "<feat-rspecifier> (<dim-wspecifier>|<dim-wxfilename>)",
		Examples:  []string{"strode feat-to-dim scp:feats.scp -"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				return kaldiioExit(ctx, kaldiio.FeatToDim(ctx.Arg(0), ctx.Arg(1), tableStreams(ctx)...))
			}
		},
	})
}
