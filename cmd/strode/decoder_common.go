package main

import (
	"github.com/strode-asr/strode/decoder"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

// decoderFailure is Kaldi's exit status after an exception (return -1).
const decoderFailure = kaldicmd.FailureStatus

// readModelTM reads the transition model of a model file for a command.
func readModelTM(ctx *kaldicmd.Context, rx string) (*decoder.TransitionModel, error) {
	tm := &decoder.TransitionModel{}
	if err := kaldiio.ReadObject(rx, decoder.TransitionModelCodec, tm, tableStreams(ctx)...); err != nil {
		return nil, err
	}
	return tm, nil
}

// mapAlignments runs f over every alignment of an rspecifier, writing what
// it returns to a wspecifier with codec c. Per-utterance errors are warned
// about and counted; it returns (done, errors).
func mapAlignments[T any](ctx *kaldicmd.Context, rspec, wspec string, c kaldiio.Codec[T], f func(key string, ali []int32) (T, error)) (int, int, error) {
	sr, err := kaldiio.OpenSequentialReader(rspec, kaldiio.IntVectorCodec, tableStreams(ctx)...)
	if err != nil {
		return 0, 0, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(wspec, c, tableStreams(ctx)...)
	if err != nil {
		return 0, 0, err
	}
	done, failed := 0, 0
	for sr.Next() {
		key := sr.Key()
		v, err := f(key, sr.Value())
		if err != nil {
			ctx.Warn("%s: %v", key, err)
			failed++
			continue
		}
		if err := tw.Write(key, v); err != nil {
			tw.Abort()
			return done, failed, err
		}
		done++
	}
	if err := sr.Err(); err != nil {
		tw.Abort()
		return done, failed, err
	}
	return done, failed, tw.Close()
}
