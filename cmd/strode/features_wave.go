package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "extract-segments",
		Summary:     "Extract segments from a large audio file in WAV format",
		Description: "Extract segments from a large audio file in WAV format.\nThe segments file has lines: <segment-id> <recording-id> <start-time> <end-time> [<channel>]\n(times in seconds; end-time -1 means the end of the recording).",
		ArgsUsage:   "<wav-rspecifier> <segments-file> <wav-wspecifier>",
		Examples:    []string{"strode extract-segments scp:wav.scp segments ark:- | <some-other-program>"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := features.DefaultExtractSegmentsOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				done, lines, err := features.ExtractSegments(o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), ctx, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				ctx.Log("Successfully processed %d lines out of %d in the segments file. ", done, lines)
				if done == 0 {
					return kaldicmd.Exit(1, fmt.Errorf("no segments were extracted"))
				}
				return nil
			}
		},
	})
	register(&kaldicmd.Command{
		Name:        "wav-copy",
		Summary:     "Copy wave files or archives",
		Description: "Copy wave file or archives of wave files (written as 16-bit PCM, byte-identical to Kaldi's wav-copy).",
		ArgsUsage:   "<wav-rspecifier> <wav-wspecifier>",
		Examples:    []string{"strode wav-copy scp:wav.scp ark,scp:wav.ark,wav_ark.scp"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				done, err := features.CopyWaves(ctx.Arg(0), ctx.Arg(1), ctx, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				ctx.Log("Copied %d wave files", done)
				if done == 0 {
					return kaldicmd.Exit(1, fmt.Errorf("no wave files were copied"))
				}
				return nil
			}
		},
	})
	register(&kaldicmd.Command{
		Name:        "wav-speed-perturb",
		Summary:     "Speed-perturb wave files or archives (sox's 'speed' as Kaldi recipes use it)",
		Description: "Play every wave --speed times faster: the samples are read as if taken at speed x the rate and\nresampled back to the rate (Kaldi's windowed-sinc LinearResample), which is what\nperturb_data_dir_speed.sh does with 'sox -t wav - -t wav - speed F'. Keys are unchanged;\nwritten as 16-bit PCM like wav-copy.",
		ArgsUsage:   "<wav-rspecifier> <wav-wspecifier>",
		Examples:    []string{"strode wav-speed-perturb --speed=0.9 scp:wav.scp ark,scp:sp0.9.ark,sp0.9.scp"},
		MinArgs:     2,
		MaxArgs:     2,
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
