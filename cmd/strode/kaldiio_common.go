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

// copyExit logs what copy-matrix, copy-vector or copy-int-vector copied,
// as Kaldi's tools do (table to table: the count, also when none was
// copied; one object: where it went), and maps the result to the exit
// status. what is the count's noun ("matrices"), one the object's
// ("matrix").
func copyExit(ctx *kaldicmd.Context, n int, err error, what, one string) error {
	if kaldiio.IsRspecifier(ctx.Arg(0)) && kaldiio.IsWspecifier(ctx.Arg(1)) && (err == nil || errors.Is(err, kaldiio.ErrNoneCopied)) {
		ctx.Log("Copied %d %s.", n, what)
	} else if err == nil {
		ctx.Log("Copied %s to %s", one, ctx.Arg(1))
	}
	return kaldiioExit(ctx, err)
}
