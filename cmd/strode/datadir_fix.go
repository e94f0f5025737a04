package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/datadir"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "fix-data-dir",
		Summary: "Sort a data directory's files and keep only the utterances present in all, as Kaldi's utils/fix_data_dir.sh",
		Description: "Sorts every file (keeping the first line of a repeated key), keeps the utterances present in\n" +
			"utt2spk, feats.scp, text, segments, utt2lang and (without segments) wav.scp, the speakers and\n" +
			"recordings left, filters every other file to them, remakes spk2utt, and says how many\n" +
			"utterances were kept and dropped. The old files are kept in <data-dir>/.backup.",
		ArgsUsage: "<data-dir>",
		Examples:  []string{"strode fix-data-dir data/train"},
		MinArgs:   1,
		MaxArgs:   1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				return datadir.Fix(ctx.Arg(0), ctx.Stdout)
			}
		},
	})
}
