package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "wav-speed-perturb",
		Summary:     "Speed-perturb wave files or archives (sox's 'speed' as Kaldi recipes use it)",
		Description: "Play every wave --speed times faster: the samples are read as if taken at speed x the rate and\nresampled back to the rate (Kaldi's windowed-sinc LinearResample), which is what\nperturb_data_dir_speed.sh does with 'sox -t wav - -t wav - speed F'. Keys are unchanged;\nwritten as 16-bit PCM like wav-copy. As wav-copy, it also takes one wave: an rxfilename\n(a file, - for stdin, 'cmd |' or foo.ark:OFFSET) and a wxfilename (- for stdout), the form\na wav.scp pipe uses (recipes/local/perturb_data_dir_speed.sh writes such entries).",
		ArgsUsage:   "<wav-rspecifier> <wav-wspecifier> | <wav-rxfilename> <wav-wxfilename>",
		Examples: []string{"strode wav-speed-perturb --speed=0.9 scp:wav.scp ark,scp:sp0.9.ark,sp0.9.scp",
			"sp0.9-utt1 strode wav-speed-perturb --speed=0.9 /data/utt1.wav - |   (a wav.scp entry)",
			"sp1.1-utt2 sox utt2.flac -t wav - | strode wav-speed-perturb --speed=1.1 - - |"},
		MinArgs: 2,
		MaxArgs: 2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := features.DefaultSpeedPerturbOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				done, err := features.SpeedPerturbWaves(o, ctx.Arg(0), ctx.Arg(1), ctx, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				ctx.Log("Speed-perturbed %d wave files by %g", done, o.Speed)
				if done == 0 {
					return kaldicmd.Exit(1, fmt.Errorf("no wave files were written"))
				}
				return nil
			}
		},
	})
}
