package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "gmm-boost-silence",
		Summary: "Boost the GMM weights of the silence phones' pdfs by a factor",
		Description: "Modify GMM-based model to boost (by a certain factor) all probabilities associated with the specified phones " +
			"(could be all silence phones, or just the ones used for optional silence). Note: this is done by modifying the GMM weights. " +
			"If the silence model shares a GMM with other models, then it will modify the GMM weights for all models that may correspond to silence.",
		ArgsUsage: "<silence-phones-list> <model-in> <model-out>",
		Examples:  []string{"strode gmm-boost-silence --boost=1.5 1:2:3 1.mdl 1_boostsil.mdl"},
		MinArgs:   3,
		MaxArgs:   3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := transform.DefaultBoostSilenceOptions()
			fs.BoolVar(&o.Binary, "binary", o.Binary, "Write output in binary mode")
			fs.Float64Var(&o.Boost, "boost", o.Boost, "Factor by which to boost silence probs")
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.GmmBoostSilence(transformEnv(ctx), o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2)))
			}
		},
	})
}
