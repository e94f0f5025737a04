package main

import (
	"errors"
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
				if kaldiio.IsRspecifier(ctx.Arg(0)) && kaldiio.IsWspecifier(ctx.Arg(1)) && (err == nil || errors.Is(err, kaldiio.ErrNoneCopied)) {
					ctx.Log("Copied %d vectors.", n)
				} else if err == nil {
					ctx.Log("Copied vector to %s", ctx.Arg(1))
				}
				return kaldiioExit(ctx, err)
			}
		},
	})
}
