package main

import (
	"fmt"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

// runComputeFeats runs compute-fbank-feats and compute-mfcc-feats: c over
// every utterance, with a progress line.
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
