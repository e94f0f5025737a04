package main

import (
	"flag"
	"fmt"

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

func runComputeFeats(ctx *kaldicmd.Context, c features.Computer, co features.ComputeFeatsOptions) error {
	streams := tableStreams(ctx)
	rep := utteranceProgress(ctx, "computing features", ctx.Arg(0))
	co.Progress = func() { rep.Add(1) }
	done, total, err := features.ComputeFeats(c, co, ctx.Arg(0), ctx.Arg(1), ctx, streams...)
	rep.Finish()
	if err != nil {
		return err
	}
	ctx.Log(" Done %d out of %d utterances.", done, total)
	if done == 0 {
		return kaldicmd.Exit(1, fmt.Errorf("no utterances were processed"))
	}
	return nil
}
