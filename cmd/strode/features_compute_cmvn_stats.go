package main

import (
	"flag"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "compute-cmvn-stats",
		Summary:     "Compute cepstral mean and variance normalization statistics",
		Description: "Compute cepstral mean and variance normalization statistics.\nIf wspecifier provided: per-utterance by default, or per-speaker if spk2utt option provided;\nif wxfilename: global. Statistics are Kaldi's 2 x (dim+1) double matrix.",
		ArgsUsage:   "<feats-rspecifier> (<stats-wspecifier>|<stats-wxfilename>)",
		Examples:    []string{"strode compute-cmvn-stats --spk2utt=ark:data/train/spk2utt scp:data/train/feats.scp ark,scp:cmvn.ark,cmvn.scp"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := features.DefaultComputeCmvnStatsOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				done, failed, err := features.ComputeCmvnStatsTableWeighted(ctx.Arg(0), ctx.Arg(1), o.Spk2utt, o.Weights, o.Binary, ctx, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				ctx.Log("Done accumulating CMVN stats for %d utterances; %d had errors.", done, failed)
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
