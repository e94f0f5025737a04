package main

import (
	"errors"

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

// errSkipped, returned by a mapTable function, skips the utterance: it is
// counted, not written.
var errSkipped = errors.New("utterance skipped")

// mapTable runs f over every object of an rspecifier read with codec in,
// writing what it returns to a wspecifier with codec out. It returns the
// number written and the number f skipped (errSkipped); any other error
// from f stops it, and the output table is abandoned.
func mapTable[In, Out any](ctx *kaldicmd.Context, rspec string, in kaldiio.Codec[In], wspec string, out kaldiio.Codec[Out], f func(key string, v In) (Out, error)) (done, skipped int, err error) {
	sr, err := kaldiio.OpenSequentialReader(rspec, in, tableStreams(ctx)...)
	if err != nil {
		return 0, 0, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(wspec, out, tableStreams(ctx)...)
	if err != nil {
		return 0, 0, err
	}
	for sr.Next() {
		key := sr.Key()
		v, err := f(key, sr.Value())
		if errors.Is(err, errSkipped) {
			skipped++
			continue
		}
		if err == nil {
			err = tw.Write(key, v)
		}
		if err != nil {
			tw.Abort()
			return done, skipped, err
		}
		done++
	}
	if err := sr.Err(); err != nil {
		tw.Abort()
		return done, skipped, err
	}
	return done, skipped, tw.Close()
}
