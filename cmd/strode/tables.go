package main

import (
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

// tableStreams routes kaldiio's "-" and pipes through the command's own
// streams, so commands run in-process (tests) exactly as from a shell, and
// makes each key a permissive ("p") read skips the command's WARNING line.
func tableStreams(ctx *kaldicmd.Context) []kaldiio.Option {
	return []kaldiio.Option{kaldiio.WithStdin(ctx.Stdin), kaldiio.WithStdout(ctx.Stdout), kaldiio.WithStderr(ctx.Stderr),
		kaldiio.WithSkipHandler(func(s kaldiio.Skip) { ctx.Warn("%s", s) })}
}
