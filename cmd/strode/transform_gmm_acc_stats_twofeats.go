package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-acc-stats-twofeats",
		Summary:     "Accumulate GMM stats with posteriors from one feature set, statistics on another",
		Description: "Accumulate stats for GMM training, computing posteriors with one set of features\nbut accumulating statistics with another.",
		ArgsUsage:   "<model-in> <feature1-rspecifier> <feature2-rspecifier> <posteriors-rspecifier> <stats-out>",
		Examples:    []string{"strode gmm-acc-stats-twofeats 1.mdl scp:train.scp scp:train_new.scp ark:1.post 1.acc"},
		MinArgs:     5,
		MaxArgs:     5,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", false, "Write output in binary mode")
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.GmmAccStatsTwofeats(transformEnv(ctx), *binary, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), ctx.Arg(3), ctx.Arg(4)))
			}
		},
	})
}
