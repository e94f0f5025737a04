package main

import (
	"flag"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "apply-cmvn-online",
		Summary: "Apply online cepstral mean (and possibly variance) normalization (the CMVN online decoding applies)",
		Description: "Apply online cepstral mean (and possibly variance) computation online, using the same code as used for\n" +
			"online decoding in the 'new' setup in online2/ and online2bin/ (Kaldi's apply-cmvn-online): each frame\n" +
			"is normalised with the stats of the last --cmn-window frames, topped up with the speaker's earlier\n" +
			"utterances (with --spk2utt, in its order) and the global stats. Train a causal model on its output.",
		ArgsUsage: "<global-cmvn-stats> <feature-rspecifier> <feature-wspecifier>",
		Examples: []string{
			"strode apply-cmvn-online --spk2utt=ark:data/train/spk2utt 'matrix-sum scp:data/train/cmvn.scp -|' scp:data/train/feats.scp ark:-",
		},
		MinArgs: 3, MaxArgs: 3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := features.DefaultOnlineCmvnOptions()
			o.Register(fs)
			spk2utt := ""
			fs.StringVar(&spk2utt, "spk2utt", spk2utt, "Optional spk2utt rspecifier: the CMVN state carries from one utterance of a speaker to the next")
			return func(ctx *kaldicmd.Context) error {
				done, _, frames, err := features.ApplyCmvnOnlineTable(o, ctx.Arg(0), spk2utt, ctx.Arg(1), ctx.Arg(2), ctx, tableStreams(ctx)...)
				ctx.Log("Applied online CMVN to %d files, or %d frames.", done, frames)
				if err == nil && done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return err
			}
		},
	})
}
