package main

import (
	"flag"

	"github.com/strode-asr/strode/acoustic/kaldinnet"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "t-tilde-stats",
		Summary: "Distribution of a STRODE model's boundaries t~ per phone, and how much the head moves the output",
		Description: "Runs a strode model on every utterance and prints, for all frames and per phone of the alignment,\n" +
			"the boundary t~_i (mean, std, 10/50/90 % quantiles, in frames) and what the ODE between t = 0 and\n" +
			"t = t~_i does to the output: the mean change of the aligned pdf's log-probability and the fraction\n" +
			"of frames whose arg-max pdf changes. A head whose t~ has collapsed shows 0 for both.",
		ArgsUsage: "<model-in> <feature-rspecifier>",
		Examples: []string{
			"strode t-tilde-stats --ali='ark:gunzip -c exp/tri3_ali/ali.*.gz |' --transition-model=exp/tri3_ali/final.mdl \\\n" +
				"    --phones=data/lang/phones.txt --json=exp/strode/t_tilde.json --png=exp/strode/t_tilde.png \\\n" +
				"    exp/strode/final.am scp:data/dev/feats.scp",
		},
		MinArgs: 2, MaxArgs: 2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := kaldinnet.DefaultTTildeStatsOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return kaldinnet.TTildeStatsReport(ctx.Arg(0), ctx.Arg(1), o, ctx.Stdout, ctx.Log)
			}
		},
	})
}
