package main

import (
	"flag"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "wav-to-duration",
		Summary:     "Read wave files and output the duration in seconds of each (Kaldi's wav-to-duration)",
		Description: "Writes each wave's duration in seconds (samples / sampling rate, in float) under its key, as\nKaldi's wav-to-duration; utils/data/get_utt2dur.sh's way of making utt2dur. Wave pipes in\nwav.scp are run to their end.",
		ArgsUsage:   "<wav-rspecifier> <duration-wspecifier>",
		Examples:    []string{"strode wav-to-duration scp:data/train/wav.scp ark,t:data/train/utt2dur"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			readEntire := false
			fs.BoolVar(&readEntire, "read-entire-file", readEntire, "Accepted for Kaldi compatibility: strode always reads the whole wave, so the duration is right whatever the header says")
			return func(ctx *kaldicmd.Context) error {
				st, err := features.WavToDuration(ctx.Arg(0), ctx.Arg(1), ctx, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				ctx.Log("Printed duration for %d audio files.", st.Done)
				ctx.Log("Mean duration was %g, min and max durations were %g, %g", float32(st.Mean), float32(st.Min), float32(st.Max))
				return nil
			}
		},
	})
}
