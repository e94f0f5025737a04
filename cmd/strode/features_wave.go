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
}
