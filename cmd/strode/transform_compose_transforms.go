package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "compose-transforms",
		Summary:     "Compose (affine or linear) feature transforms",
		Description: "Compose (affine or linear) feature transforms\n Note: it does matrix multiplication (A B) so B is the transform that gets applied\n  to the features first.  If b-is-affine = true, then assume last column of b corresponds to offset",
		ArgsUsage:   "(transform-A-rspecifier|transform-A-rxfilename) (transform-B-rspecifier|transform-B-rxfilename) (transform-out-wspecifier|transform-out-wxfilename)",
		Examples:    []string{"strode compose-transforms 1.mat 2.mat 3.mat", "strode compose-transforms 1.mat ark:2.trans ark:3.trans", "strode compose-transforms --b-is-affine=true ark:1.trans ark:2.trans ark:3.trans"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := transform.DefaultComposeOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.ComposeTransforms(transformEnv(ctx), o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2)))
			}
		},
	})
}
