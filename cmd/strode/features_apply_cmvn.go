package main

import (
	"flag"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "apply-cmvn",
		Summary:     "Apply cepstral mean and (optionally) variance normalization",
		Description: "Apply cepstral mean and (optionally) variance normalization.\nPer-utterance by default, or per-speaker if utt2spk option provided.",
		ArgsUsage:   "(<cmvn-stats-rspecifier>|<cmvn-stats-rxfilename>) <feats-rspecifier> <feats-wspecifier>",
		Examples:    []string{"strode apply-cmvn --utt2spk=ark:data/train/utt2spk scp:data/train/cmvn.scp scp:data/train/feats.scp ark:-"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := features.DefaultApplyCmvnOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				done, failed, err := features.ApplyCmvnTable(o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), ctx, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				switch {
				case o.NormVars:
					ctx.Log("Applied cepstral mean and variance normalization to %d utterances, errors on %d", done, failed)
				case o.NormMeans:
					ctx.Log("Applied cepstral mean normalization to %d utterances, errors on %d", done, failed)
				default:
					ctx.Log("Copied %d utterances.", done)
				}
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
