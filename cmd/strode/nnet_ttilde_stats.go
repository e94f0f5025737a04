package main

import (
	"flag"

	"github.com/strode-asr/strode/acoustic/am"
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
			var o kaldinnet.TTildeStatsOptions
			var jsonOut, pngOut string
			minFrames := 20
			fs.StringVar(&o.Ali, "ali", "", "alignment rspecifier (transition-ids) (required)")
			fs.StringVar(&o.TransModel, "transition-model", "", "transition model of the alignments (required)")
			fs.StringVar(&o.Phones, "phones", "", "phones.txt, to print phone names instead of ids")
			fs.StringVar(&o.CMVN, "cmvn", "", "CMVN statistics rspecifier, when the model's pipeline applies CMVN from a table")
			fs.StringVar(&o.Utt2spk, "utt2spk", "", "utterance-to-speaker rspecifier for --cmvn")
			fs.IntVar(&o.MaxUtts, "max-utts", 0, "stop after this many utterances (0: all)")
			fs.IntVar(&minFrames, "min-frames", minFrames, "print phones with at least this many frames")
			fs.StringVar(&jsonOut, "json", "", "write the statistics to this JSON file")
			fs.StringVar(&pngOut, "png", "", "draw the histogram of t~ to this PNG (and the SVG beside it)")
			return func(ctx *kaldicmd.Context) error {
				f, err := am.Load(ctx.Arg(0))
				if err != nil {
					return err
				}
				st, err := kaldinnet.ComputeTTildeStats(f, ctx.Arg(1), o, ctx.Log)
				if err != nil {
					return err
				}
				if err := st.WriteMarkdown(ctx.Stdout, minFrames); err != nil {
					return err
				}
				if jsonOut != "" {
					if err := st.WriteJSON(jsonOut); err != nil {
						return err
					}
				}
				if pngOut != "" {
					if err := st.SaveHistogram(pngOut, "t~ of "+ctx.Arg(0)); err != nil {
						ctx.Log("%v", err)
					}
				}
				return nil
			}
		},
	})
}
