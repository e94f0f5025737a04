package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "acc-lda",
		Summary:     "Accumulate LDA statistics based on pdf-ids",
		Description: "Accumulate LDA statistics based on pdf-ids. Inputs are the model (only its transition model is\nread), the un-transformed features and state posteriors (on transition-ids).",
		ArgsUsage:   "<transition-gmm/model> <features-rspecifier> <posteriors-rspecifier> <lda-acc-out>",
		Examples:    []string{"strode ali-to-post ark:1.ali ark:- | strode acc-lda 1.mdl \"ark:splice-feats scp:train.scp ark:- |\" ark:- ldaacc.1"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := transform.AccOptions{Binary: true}
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.AccLda(transformEnv(ctx), o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), ctx.Arg(3)))
			}
		},
	})
}
