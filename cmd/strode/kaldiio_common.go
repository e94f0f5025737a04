package main

import (
	"errors"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

// Exit codes of Kaldi's table tools: a copy that copied nothing exits 1
// (Kaldi's `return (num_done != 0 ? 0 : 1)`); a failure exits 255 (Kaldi's
// `return -1` after catching the exception).
const kaldiFailure = kaldicmd.FailureStatus

// kaldiioExit maps a copy tool's result to Kaldi's exit status.
func kaldiioExit(ctx *kaldicmd.Context, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, kaldiio.ErrNoneCopied):
		return kaldicmd.Exit(1, nil)
	}
	return kaldicmd.Exit(kaldiFailure, err)
}
