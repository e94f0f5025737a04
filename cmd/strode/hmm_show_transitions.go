package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "show-transitions",
		Summary:     "Print debugging info from transition model",
		Description: "Print debugging info from transition model, in human-readable form.",
		ArgsUsage:   "<phones-symbol-table> <transition/model-file> [<occs-file>]",
		Examples:    []string{"strode show-transitions data/lang/phones.txt 1.mdl 1.occs"},
		MinArgs:     2,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				phones, err := fst.ReadSymbolTableFile(ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				tm, err := readModelTM(ctx, ctx.Arg(1))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				var occs []float64
				if ctx.Arg(2) != "" {
					var v kaldiio.DoubleVector
					if err := kaldiio.ReadObject(ctx.Arg(2), kaldiio.DoubleVectorCodec, &v, tableStreams(ctx)...); err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					occs = v
				}
				if err := tm.Print(ctx.Stdout, phones, occs); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				return nil
			}
		},
	})
}
