package main

import (
	"flag"
	"fmt"
	"strconv"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/datadir"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "split-data",
		Summary: "Split a data directory into N parts for parallel jobs, as Kaldi's utils/split_data.sh",
		Description: "Writes <data-dir>/split<N>/{1..N} (with --per-utt, split<N>utt): utt2spk split by speaker\n" +
			"(each speaker's utterances in one part, parts balanced by utterance count, as split_scp.pl\n" +
			"--utt2spk) or by utterance, and each part's spk2utt, feats.scp, text, wav.scp, segments,\n" +
			"cmvn.scp, utt2dur, utt2num_frames, ... Does nothing when every part is newer than its\n" +
			"sources. Fails when N exceeds the number of speakers (utterances with --per-utt).",
		ArgsUsage: "<data-dir> <num-to-split>",
		Examples:  []string{"strode split-data data/train 8", "strode split-data --per-utt data/test 40"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			perUtt := fs.Bool("per-utt", false, "Split by utterance, ignoring speakers (output in split<N>utt)")
			return func(ctx *kaldicmd.Context) error {
				n, err := strconv.Atoi(ctx.Arg(1))
				if err != nil {
					return fmt.Errorf("%w: Invalid num-split argument %s", kaldicmd.ErrUsage, ctx.Arg(1))
				}
				_, err = datadir.Split(ctx.Arg(0), n, *perUtt, ctx.Stderr)
				return err
			}
		},
	})
}
