package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "feat-to-len",
		Summary: "Write the number of frames of each utterance (or the total)",
		Description: "Reads an archive of features and writes a corresponding archive\n" +
			"that maps utterance-id to utterance length in frames, or (with\n" +
			"one argument) print to stdout the total number of frames in the\n" +
			"input archive.\n" +
			"Usage: feat-to-len [options] <in-rspecifier> [<out-wspecifier>]",
		ArgsUsage: "<in-rspecifier> [<out-wspecifier>]",
		Examples:  []string{"strode feat-to-len scp:feats.scp ark,t:feats.lengths", "strode feat-to-len scp:feats.scp"},
		MinArgs:   1,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				return kaldiioExit(ctx, kaldiio.FeatToLen(ctx.Arg(0), ctx.Arg(1), ctx.Stdout, tableStreams(ctx)...))
			}
		},
	})
}
