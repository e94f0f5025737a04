package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-transform-means",
		Summary:     "Transform GMM means with linear or affine transform",
		Description: "Transform GMM means with linear or affine transform",
		ArgsUsage:   "<transform-matrix> <model-in> <model-out>",
		Examples:    []string{"strode gmm-transform-means 2.mat 2.mdl 3.mdl"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := transform.BinaryOption{Binary: true}
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.GmmTransformMeans(transformEnv(ctx), o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2)))
			}
		},
	})
}
