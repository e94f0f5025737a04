package main

import (
	"flag"
	"strings"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/fsdd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "fsdd-data-prep",
		Summary: "Make Kaldi data directories and the dict directory of the Free Spoken Digit Dataset (recipes/fsdd stage 0)",
		Description: "Reads <fsdd-dir>/recordings/DIGIT_SPEAKER_TAKE.wav and writes <data-dir>/train and <data-dir>/test\n" +
			"(wav.scp, text, utt2spk, spk2utt, utt2warp; keys SPEAKER_DIGIT_TAKE): --test-speakers are the test set,\n" +
			"every other speaker trains. Training takes appear once per --speeds factor (speed-perturbed copies\n" +
			"in train/spF.ark, speakers spF-SPK, as Kaldi's perturb_data_dir_speed.sh names them) and once more per\n" +
			"--warps factor (utt2warp, speakers wF-SPK); train/cv.list and train/cv_heldout.list are the held-out\n" +
			"--cv-takes (all copies; those at their own speed). --tts-voices adds espeak-ng speakers ttsNN.\n" +
			"Also writes <data-dir>/local/dict, the dict directory of the ten digit words.",
		ArgsUsage: "<fsdd-dir> <data-dir>",
		Examples: []string{
			"strode fsdd-data-prep --test-speakers=george --speeds='0.9 1.0 1.1' ../shared/data/fsdd exp/fsdd/data",
			"strode fsdd-data-prep --test-speakers='jackson nicolas' --train-takes=5-24 --test-takes=0-9 data/fsdd exp/fsdd_quick/data",
		},
		MinArgs: 2,
		MaxArgs: 2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := fsdd.DefaultOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				sets, err := fsdd.DataPrep(o, ctx.Arg(0), ctx.Arg(1), ctx)
				if err != nil {
					return err
				}
				for _, s := range sets {
					ctx.Log("%s: %d utterances, speakers: %s", s.Name, s.Utterances, strings.Join(s.Speakers, " "))
				}
				return nil
			}
		},
	})
}
