package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/datadir"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "subset-data-dir-tr-cv",
		Summary: "Split a data directory into speaker-disjoint training and cross-validation sets, as Kaldi's utils/subset_data_dir_tr_cv.sh",
		Description: "Writes <tr-dir> and <cv-dir> (utt2spk, spk2utt and every per-utterance, per-speaker and\n" +
			"per-recording file, filtered). With --cv-spk-percent P, P% of the speakers, shuffled with\n" +
			"--seed (our shuffle: the same seed gives the same sets, not Kaldi's Perl shuffle), go to the\n" +
			"cross-validation set; otherwise the last --cv-utt-percent of utt2spk does, cut back to a\n" +
			"change of speaker. With <src-dir>/utt2uniq (a speed-perturbed dir), the copies of an utterance\n" +
			"stay on one side: the units are its groups of utterances (and by speakers, the speakers that\n" +
			"share them), which Kaldi's script does not ensure.",
		ArgsUsage: "<src-dir> <tr-dir> <cv-dir>",
		Examples:  []string{"strode subset-data-dir-tr-cv --cv-spk-percent 10 --seed 777 data/train data/train_tr90 data/train_cv10"},
		MinArgs:   3,
		MaxArgs:   3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := datadir.DefaultTrCvOptions()
			fs.IntVar(&o.CvSpkPercent, "cv-spk-percent", o.CvSpkPercent, "Percentage of speakers, chosen at random, for the cross-validation set (-1: split by utterances instead)")
			fs.IntVar(&o.CvUttPercent, "cv-utt-percent", o.CvUttPercent, "Percentage of utterances, from the end of utt2spk, for the cross-validation set (without --cv-spk-percent)")
			fs.Uint64Var(&o.Seed, "seed", o.Seed, "Seed of the speaker shuffle")
			return func(ctx *kaldicmd.Context) error {
				return datadir.SubsetTrCv(ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), o, ctx.Stdout)
			}
		},
	})
}
