package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/align"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "ali-to-pdf",
		Summary:     "Convert alignments (transition-ids) to pdf-ids",
		Description: "Converts alignments (containing transition-ids) to pdf-ids, zero-based.",
		ArgsUsage:   "<model> <alignments-rspecifier> <pdfs-wspecifier>",
		Examples:    []string{"strode ali-to-pdf 1.mdl ark:1.ali ark,t:-"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				tm, err := readModelTM(ctx, ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				done, failed, err := mapAlignments(ctx, ctx.Arg(1), ctx.Arg(2), kaldiio.IntVectorCodec,
					func(key string, ali []int32) (kaldiio.IntVector, error) { return align.AliToPdf(tm, ali) })
				ctx.Log("Converted %d alignments to pdf sequences.", done)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				if failed > 0 {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("%d alignments had transition-ids not in the model", failed))
				}
				return nil
			}
		},
	})
}
