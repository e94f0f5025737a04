package main

import (
	"flag"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "model-info",
		Summary:     "Print an acoustic model's architecture, parameter count, feature pipeline and training history",
		Description: "Prints what a strode acoustic model file records: kind and sizes, parameters per tensor and in\ntotal, the feature pipeline it expects, the number of pdfs and the per-epoch training history.",
		ArgsUsage:   "<model-in>",
		Examples:    []string{"strode model-info exp/strode/final.am"},
		MinArgs:     1, MaxArgs: 1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				f, err := am.Load(ctx.Arg(0))
				if err != nil {
					return err
				}
				return f.WriteInfo(ctx.Stdout)
			}
		},
	})
}
