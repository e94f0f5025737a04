package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "weight-silence-post",
		Summary:     "Apply weight to silences in posts",
		Description: "Apply weight to silences in posts.\n<silence-phones> is a colon-separated list of phone ids (e.g. 1:2:3).",
		ArgsUsage:   "<silence-weight> <silence-phones> <model> <posteriors-rspecifier> <posteriors-wspecifier>",
		Examples:    []string{"strode weight-silence-post 0.0 1:2:3 1.mdl ark:1.post ark:nosil.post"},
		MinArgs:     5,
		MaxArgs:     5,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var o transform.WeightSilenceOptions
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.WeightSilencePostTool(transformEnv(ctx), o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), ctx.Arg(3), ctx.Arg(4)))
			}
		},
	})
}
