package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
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
