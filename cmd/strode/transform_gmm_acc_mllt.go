package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-acc-mllt",
		Summary:     "Accumulate MLLT (global STC) statistics",
		Description: "Accumulate MLLT (global STC) statistics",
		ArgsUsage:   "<model-in> <feature-rspecifier> <posteriors-rspecifier> <stats-out>",
		Examples:    []string{"strode gmm-acc-mllt 1.mdl scp:train.scp ark:1.post 1.macc"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := transform.AccOptions{Binary: true, RandPrune: 0.25}
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.GmmAccMllt(transformEnv(ctx), o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), ctx.Arg(3)))
			}
		},
	})
}
