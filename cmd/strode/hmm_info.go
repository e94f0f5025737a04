package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "hmm-info",
		Summary:     "Write basic information about a transition model",
		Description: "Write to standard output various properties of HMM-based transition model",
		ArgsUsage:   "<model-in>",
		Examples:    []string{"strode hmm-info trans.mdl"},
		MinArgs:     1,
		MaxArgs:     1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				tm, err := readModelTM(ctx, ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				if err := tm.PrintInfo(ctx.Stdout); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				return nil
			}
		},
	})
}
