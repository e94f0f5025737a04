package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-copy",
		Summary:     "Copy a GMM-based model (and possibly change binary/text format)",
		Description: "Copy GMM based model (and possibly change binary/text format)",
		ArgsUsage:   "<model-in> <model-out>",
		Examples:    []string{"strode gmm-copy --binary=false 1.mdl 1_txt.mdl"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := gmm.DefaultCopyOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				err = kaldiio.WriteObject(ctx.Arg(1), gmm.CopyCodec(o), o.Binary, m, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				ctx.Log("Written model to %s", ctx.Arg(1))
				return nil
			}
		},
	})
}
