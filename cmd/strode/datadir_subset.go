package main

import (
	"errors"
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/datadir"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "subset-data-dir",
		Summary: "Copy the listed utterances (or speakers) of a data directory, as Kaldi's utils/subset_data_dir.sh --utt-list/--spk-list",
		Description: "Writes <dest-dir> with utt2spk, spk2utt and every per-utterance, per-speaker and per-recording\n" +
			"file of <src-dir> filtered to the utterances in the first field of --utt-list's lines (or to\n" +
			"the speakers of --spk-list's).",
		ArgsUsage: "<src-dir> <dest-dir>",
		Examples:  []string{"strode subset-data-dir --utt-list exp/cv.list data/train data/train_cv"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			uttList := fs.String("utt-list", "", "File whose first fields are the utterances to keep")
			spkList := fs.String("spk-list", "", "File whose first fields are the speakers to keep")
			return func(ctx *kaldicmd.Context) error {
				switch {
				case (*uttList == "") == (*spkList == ""):
					return errors.New("subset-data-dir: give one of --utt-list and --spk-list")
				case *uttList != "":
					return datadir.Subset(ctx.Arg(0), ctx.Arg(1), *uttList, true, ctx.Stdout)
				default:
					return datadir.Subset(ctx.Arg(0), ctx.Arg(1), *spkList, false, ctx.Stdout)
				}
			}
		},
	})
}
