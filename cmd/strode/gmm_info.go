package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-info",
		Summary:     "Write basic information about a GMM-based model",
		Description: "Write to standard output various properties of GMM-based model",
		ArgsUsage:   "<model-in>",
		Examples:    []string{"strode gmm-info 1.mdl"},
		MinArgs:     1,
		MaxArgs:     1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				if err := m.PrintInfo(ctx.Stdout); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				return nil
			}
		},
	})
}
