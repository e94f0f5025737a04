package main

import (
	"github.com/strode-asr/strode/decoder/align"
	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

// decoderFailure is Kaldi's exit status after an exception (return -1).
const decoderFailure = kaldicmd.FailureStatus

// readModelTM reads the transition model of a model file for a command.
func readModelTM(ctx *kaldicmd.Context, rx string) (*hmm.TransitionModel, error) {
	tm := &hmm.TransitionModel{}
	if err := kaldiio.ReadObject(rx, hmm.TransitionModelCodec, tm, tableStreams(ctx)...); err != nil {
		return nil, err
	}
	return tm, nil
}

// mapAlignments runs f over every alignment of an rspecifier, writing what
// it returns to a wspecifier with codec c. Per-utterance errors are warned
// about and counted; it returns (done, errors).
func mapAlignments[T any](ctx *kaldicmd.Context, rspec, wspec string, c kaldiio.Codec[T], f func(key string, ali []int32) (T, error)) (int, int, error) {
	return mapTable(ctx, rspec, kaldiio.IntVectorCodec, wspec, c, func(key string, ali kaldiio.IntVector) (T, error) {
		v, err := f(key, ali)
		if err != nil {
			ctx.Warn("%s: %v", key, err)
			return v, errSkipped
		}
		return v, nil
	})
}

// openGraphCompiler reads the tree, model and lexicon FST of
// compile-train-graphs and align-mapped (arguments 0, 1 and 2) and the
// optional --read-disambig-syms list, and returns the training-graph
// compiler with the model's transition model.
func openGraphCompiler(ctx *kaldicmd.Context, disambigRx string, opt align.TrainingGraphOptions) (*align.TrainingGraphCompiler, *hmm.TransitionModel, error) {
	tree, err := tree.Read(ctx.Arg(0))
	if err != nil {
		return nil, nil, err
	}
	tm, err := readModelTM(ctx, ctx.Arg(1))
	if err != nil {
		return nil, nil, err
	}
	lex, err := fst.ReadRx(ctx.Arg(2), tableStreams(ctx)...)
	if err != nil {
		return nil, nil, err
	}
	var disambig []int32
	if disambigRx != "" {
		if disambig, err = fst.ReadIntList(disambigRx); err != nil {
			return nil, nil, err
		}
	}
	comp, err := align.NewTrainingGraphCompiler(tm, tree, lex, disambig, opt)
	if err != nil {
		return nil, nil, err
	}
	return comp, tm, nil
}
