package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-sum-accs",
		Summary:     "Sum multiple accumulated stats files for GMM training",
		Description: "Sum multiple accumulated stats files for GMM training.",
		ArgsUsage:   "<stats-out> <stats-in1> <stats-in2> ...",
		Examples:    []string{"strode gmm-sum-accs 1.acc 1.1.acc 1.2.acc"},
		MinArgs:     2,
		MaxArgs:     -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			return func(ctx *kaldicmd.Context) error {
				var sum gmm.Accs
				for i := 1; i < len(ctx.Args()); i++ {
					var a gmm.Accs
					if err := kaldiio.ReadObject(ctx.Arg(i), gmm.AccsCodec, &a, tableStreams(ctx)...); err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					if err := sum.Add(&a); err != nil {
						return kaldicmd.Exit(decoderFailure, fmt.Errorf("%s: %w", ctx.Arg(i), err))
					}
				}
				ctx.Log("Summed %d stats, total count %s, avg like/frame %s", len(ctx.Args())-1, g6(sum.GMM.TotFrames), g6(sum.GMM.TotLogLike/max(sum.GMM.TotFrames, 1e-20)))
				if err := kaldiio.WriteObject(ctx.Arg(0), gmm.AccsCodec, *binary, &sum, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				ctx.Log("Written stats to %s", ctx.Arg(0))
				return nil
			}
		},
	})
}
