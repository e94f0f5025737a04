package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "est-mllt",
		Summary:     "Do MLLT update",
		Description: "Do MLLT update (Gales' semi-tied covariance row update from the identity, 200 iterations).\nNote: use compose-transforms <mllt-mat-out> <prev-mllt-mat> to combine with previous\n  MLLT or LDA transform, if any, and\n  gmm-transform-means to apply <mllt-mat-out> to GMM means.",
		ArgsUsage:   "<mllt-mat-out> <stats-in1> <stats-in2> ...",
		Examples:    []string{"strode est-mllt 2.mat 1a.macc 1b.macc"},
		MinArgs:     2,
		MaxArgs:     -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := transform.BinaryOption{Binary: false}
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.EstMllt(transformEnv(ctx), o, ctx.Arg(0), ctx.Args()[1:]))
			}
		},
	})
}
