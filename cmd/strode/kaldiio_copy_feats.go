package main

import (
	"errors"
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "copy-feats",
		Summary: "Copy features [and possibly change format]",
		Description: "Copy features [and possibly change format]\n" +
			"Usage: copy-feats [options] <feature-rspecifier> <feature-wspecifier>\n" +
			"or:   copy-feats [options] <feats-rxfilename> <feats-wxfilename>",
		ArgsUsage: "<feature-rspecifier> <feature-wspecifier>",
		Examples:  []string{"strode copy-feats ark:- ark,scp:foo.ark,foo.scp", "strode copy-feats --compress=true ark:foo.ark ark:foo_cm.ark", "strode copy-feats ark:foo.ark ark,t:txt.ark"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := kaldiio.DefaultCopyFeatsOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				n, err := kaldiio.CopyFeats(ctx.Arg(0), ctx.Arg(1), o, tableStreams(ctx)...)
				switch {
				case kaldiio.IsRspecifier(ctx.Arg(0)) && (err == nil || errors.Is(err, kaldiio.ErrNoneCopied)):
					ctx.Log("Copied %d feature matrices.", n)
				case err == nil:
					ctx.Log("Copied features from %s to %s", ctx.Arg(0), ctx.Arg(1))
				}
				return kaldiioExit(ctx, err)
			}
		},
	})
}
