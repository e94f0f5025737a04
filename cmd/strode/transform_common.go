package main

import (
	"errors"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

// transformEnv is what the decoder/transform tools need from a command.
func transformEnv(ctx *kaldicmd.Context) transform.Env {
	return transform.Env{Opts: tableStreams(ctx), Log: ctx.Log, Warn: ctx.Warn}
}

// transformExit maps a tool's error to Kaldi's exit status: 1 when nothing
// was processed, the failure status for anything else.
func transformExit(err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, transform.ErrNothingDone):
		return kaldicmd.Exit(1, err)
	}
	return kaldicmd.Exit(decoderFailure, err)
}
