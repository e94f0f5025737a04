package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "est-lda",
		Summary:     "Estimate LDA transform using stats obtained with acc-lda",
		Description: "Estimate LDA transform using stats obtained with acc-lda.\nThe rows are the generalised eigenvectors of the between- and within-class covariances, largest\neigenvalue first, scaled to unit within-class variance; --remove-offset appends the column that\nmakes the projected mean zero.",
		ArgsUsage:   "<lda-matrix-out> <lda-acc-1> <lda-acc-2> ...",
		Examples:    []string{"strode est-lda --dim=40 0.mat ldaacc.1 ldaacc.2"},
		MinArgs:     2,
		MaxArgs:     -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := transform.DefaultEstLdaOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.EstLda(transformEnv(ctx), o, ctx.Arg(0), ctx.Args()[1:]))
			}
		},
	})
}
