package main

import (
	"flag"
	"os"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/chime5"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "chime5-data-prep",
		Summary: "Make Kaldi data directories for CHiME-5's binaural worn microphones (egs/chime5/s5's prepare_data.sh)",
		Description: "Reads a set's JSON transcriptions and finds its binaural S??_P??.wav files, and writes the Kaldi data\n" +
			"directory text, segments, utt2spk, spk2utt and wav.scp as egs/chime5/s5's local/prepare_data.sh\n" +
			"--mictype worn and run.sh stage 5 do: utterance ids P05_S02_KITCHEN.L-0004060-0004382, punctuation\n" +
			"removed and lower case, [redacted] utterances dropped, [noise]/[laughs]/[inaudible] kept as words,\n" +
			"one recording per channel (P05_S02.L). The second argument is a set name (train, dev, eval) under\n" +
			"<chime5-dir>/audio and <chime5-dir>/transcriptions, or, as in prepare_data.sh, the JSON directory\n" +
			"with the audio directory first. See the package doc of recipes/chime5 for every choice.",
		ArgsUsage: "<chime5-dir> <set: train|dev|eval> <data-dir>\n  or: strode chime5-data-prep [options] <audio-dir> <json-transcript-dir> <data-dir>",
		Examples: []string{
			"strode chime5-data-prep /corpora/CHiME5 train data/train_worn",
			"strode chime5-data-prep --channels=L,R /corpora/CHiME5/audio/dev /corpora/CHiME5/transcriptions/dev data/dev_worn_stereo",
		},
		MinArgs: 3,
		MaxArgs: 3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := chime5.DefaultOptions()
			if exe, err := os.Executable(); err == nil {
				o.Strode = exe
			}
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				audio, transcripts := ctx.Arg(0), ctx.Arg(1)
				switch ctx.Arg(1) {
				case "train", "dev", "eval":
					var err error
					if audio, transcripts, err = chime5.SetDirs(ctx.Arg(0), ctx.Arg(1)); err != nil {
						return err
					}
				}
				s, err := chime5.Prepare(o, audio, transcripts, ctx.Arg(2), ctx)
				if err != nil {
					return err
				}
				ctx.Log("%d utterance(s) in %d file(s): %d redacted, %d with end <= start, %d in excluded speaker_sessions dropped; %d kept (%d with no words left)",
					s.Entries, s.Files, s.Redacted, s.Empty, s.Excluded, s.Kept, s.EmptyText)
				ctx.Log("Wrote %s: %d utterances, %d speakers, %d recordings (wav.scp through %s)", ctx.Arg(2), s.Utterances, s.Speakers, s.Recordings, s.WavPipe)
				return nil
			}
		},
	})
}
