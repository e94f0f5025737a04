package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "copy-int-vector",
		Summary: "Copy vectors of integers, or archives of vectors of integers (e.g. alignments)",
		Description: "Copy vectors of integers, or archives of vectors of integers \n(e.g. alignments)\n\n" +
			"Usage: copy-int-vector [options] (vector-in-rspecifier|vector-in-rxfilename) (vector-out-wspecifier|vector-out-wxfilename)",
		ArgsUsage: "(vector-in-rspecifier|vector-in-rxfilename) (vector-out-wspecifier|vector-out-wxfilename)",
		Examples:  []string{"strode copy-int-vector --binary=false foo -", "strode copy-int-vector ark:1.ali ark,t:-"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write in binary mode (only relevant if output is a wxfilename)")
			return func(ctx *kaldicmd.Context) error {
				n, err := kaldiio.CopyIntVector(ctx.Arg(0), ctx.Arg(1), *binary, tableStreams(ctx)...)
				return copyExit(ctx, n, err, "vectors of int32", "vector")
			}
		},
	})
}
