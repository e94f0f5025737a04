package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "copy-vector",
		Summary: "Copy vectors, or archives of vectors (e.g. transition-accs; speaker vectors)",
		Description: "Copy vectors, or archives of vectors (e.g. transition-accs; speaker vectors)\n\n" +
			"Usage: copy-vector [options] (<vector-in-rspecifier>|<vector-in-rxfilename>) (<vector-out-wspecifier>|<vector-out-wxfilename>)",
		ArgsUsage: "(<vector-in-rspecifier>|<vector-in-rxfilename>) (<vector-out-wspecifier>|<vector-out-wxfilename>)",
		Examples:  []string{"strode copy-vector --binary=false 1.mat -", "strode copy-vector ark:2.trans ark,t:-"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := kaldiio.DefaultCopyVectorOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				n, err := kaldiio.CopyVector(ctx.Arg(0), ctx.Arg(1), o, tableStreams(ctx)...)
				return copyExit(ctx, n, err, "vectors", "vector")
			}
		},
	})
}
