package main

import (
	"flag"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "compute-fbank-feats",
		Summary:     "Create Mel-filter bank (FBANK) feature files",
		Description: "Create Mel-filter bank (FBANK) feature files, exactly as Kaldi's compute-fbank-feats.",
		ArgsUsage:   "<wav-rspecifier> <feats-wspecifier>",
		Examples:    []string{"strode compute-fbank-feats --num-mel-bins=40 scp:wav.scp ark,scp:fbank.ark,fbank.scp"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			fo := features.DefaultFbankOptions()
			co := features.DefaultComputeFeatsOptions()
			fo.Register(fs)
			co.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				c, err := features.NewFbank(fo)
				if err != nil {
					return err
				}
				return runComputeFeats(ctx, c, co)
			}
		},
	})
}
