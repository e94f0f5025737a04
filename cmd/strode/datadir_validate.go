package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/datadir"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "validate-data-dir",
		Summary: "Check a data directory as Kaldi's utils/validate_data_dir.sh",
		Description: "Checks that the files of a Kaldi data directory are sorted in C order without repeated\n" +
			"keys, that utt2spk and spk2utt agree, that text, wav.scp (or segments and their recordings),\n" +
			"feats.scp, cmvn.scp, utt2dur, ... cover the same utterances/speakers/recordings, and that\n" +
			"segments' times are sane. The first problem is reported with its file and line (exit 1).\n" +
			"The --no-X options only stop X from being required: a file that is there is checked.",
		ArgsUsage: "<data-dir>",
		Examples:  []string{"strode validate-data-dir data/train", "strode validate-data-dir --no-feats data/test"},
		MinArgs:   1,
		MaxArgs:   1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var o datadir.ValidateOptions
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if err := datadir.Validate(ctx.Arg(0), o, ctx.Stdout); err != nil {
					return kaldicmd.Exit(1, err)
				}
				return nil
			}
		},
	})
}
