package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "copy-matrix",
		Summary: "Copy matrices, or archives of matrices (e.g. features or transforms)",
		Description: "Copy matrices, or archives of matrices (e.g. features or transforms)\n" +
			"Also see copy-feats which has other format options\n\n" +
			"Usage: copy-matrix [options] <matrix-in-rspecifier> <matrix-out-wspecifier>\n" +
			"  or: copy-matrix [options] <matrix-in-rxfilename> <matrix-out-wxfilename>",
		ArgsUsage: "(<matrix-in-rspecifier>|<matrix-in-rxfilename>) (<matrix-out-wspecifier>|<matrix-out-wxfilename>)",
		Examples:  []string{"strode copy-matrix --binary=false 1.mat -", "strode copy-matrix ark:2.trans ark,t:-"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := kaldiio.DefaultCopyMatrixOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				n, err := kaldiio.CopyMatrix(ctx.Arg(0), ctx.Arg(1), o, tableStreams(ctx)...)
				return copyExit(ctx, n, err, "matrices", "matrix")
			}
		},
	})
}
