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
}
