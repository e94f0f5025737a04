package main

import (
	"strconv"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

// optionalWriter is a table writer for an optional wspecifier: "" writes
// nothing.
type optionalWriter[T any] struct{ w *kaldiio.TableWriter[T] }

func openOptionalWriter[T any](ctx *kaldicmd.Context, wspec string, c kaldiio.Codec[T]) (*optionalWriter[T], error) {
	if wspec == "" {
		return &optionalWriter[T]{}, nil
	}
	w, err := kaldiio.OpenTableWriter(wspec, c, tableStreams(ctx)...)
	if err != nil {
		return nil, err
	}
	return &optionalWriter[T]{w}, nil
}

func (o *optionalWriter[T]) Write(key string, v T) error {
	if o.w == nil {
		return nil
	}
	return o.w.Write(key, v)
}

func (o *optionalWriter[T]) Close() error {
	if o.w == nil {
		return nil
	}
	return o.w.Close()
}

func (o *optionalWriter[T]) Abort() {
	if o.w != nil {
		o.w.Abort()
	}
}

// fmtG prints a float as a default C++ stream does (6 significant digits).
func fmtG(f float32) string { return strconv.FormatFloat(float64(f), 'g', 6, 64) }
