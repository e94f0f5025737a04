package main

import (
	"flag"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "compute-mfcc-feats",
		Summary:     "Create MFCC feature files",
		Description: "Create MFCC feature files, exactly as Kaldi's compute-mfcc-feats.",
		ArgsUsage:   "<wav-rspecifier> <feats-wspecifier>",
		Examples:    []string{"strode compute-mfcc-feats --num-ceps=13 scp:wav.scp ark:mfcc.ark"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			mo := features.DefaultMfccOptions()
			co := features.DefaultComputeFeatsOptions()
			mo.Register(fs)
			co.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				c, err := features.NewMfcc(mo)
				if err != nil {
					return err
				}
				return runComputeFeats(ctx, c, co)
			}
		},
	})
}
