package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "matrix-sum-rows",
		Summary: "Sum the rows of an input table of matrices and output the corresponding table of vectors",
		Description: "Sum the rows of an input table of matrices and output the corresponding table of vectors\n" +
			"Usage: matrix-sum-rows [options] <matrix-rspecifier> <vector-wspecifier>\n" +
			"See also: vector-sum",
		ArgsUsage: "<matrix-rspecifier> <vector-wspecifier>",
		Examples:  []string{"strode matrix-sum-rows ark:- ark:- | strode vector-sum ark:- sum.vec"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var o kaldiio.MatrixSumRowsOptions
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				done, rows, err := kaldiio.MatrixSumRows(ctx.Arg(0), ctx.Arg(1), o, tableStreams(ctx)...)
				if err == nil {
					ctx.Log("Summed rows %d matrices, %d rows in total.", done, rows)
				}
				return kaldiioExit(ctx, err)
			}
		},
	})
}
