package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "copy-transition-model",
		Summary:     "Copy a transition model (e.g. the head of final.mdl), binary or text",
		Description: "Copies a transition model (this can be used to separate transition\nmodels from the acoustic models they are written with.",
		ArgsUsage:   "<transition-model or model file> <transition-model-out>",
		Examples:    []string{"strode copy-transition-model --binary=false final.mdl final.tm.txt"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode.")
			return func(ctx *kaldicmd.Context) error {
				tm, err := readModelTM(ctx, ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				if err := kaldiio.WriteObject(ctx.Arg(1), hmm.TransitionModelCodec, *binary, tm, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				ctx.Log("Copied transition model.")
				return nil
			}
		},
	})
}
