package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "add-deltas",
		Summary:     "Add deltas (typically to raw mfcc or plp features)",
		Description: "Add deltas (typically to raw mfcc or plp features).",
		ArgsUsage:   "<in-rspecifier> <out-wspecifier>",
		Examples:    []string{"strode add-deltas --delta-order=2 ark:feats.ark ark:-"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := features.DefaultAddDeltasOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if err := o.Validate(); err != nil {
					return err
				}
				truncate := o.Truncate
				df, err := features.NewDeltaFeatures(o.Delta)
				if err != nil {
					return err
				}
				_, err = features.MapFeatures(ctx.Arg(0), ctx.Arg(1), func(key string, m kaldiio.Matrix) (kaldiio.Matrix, bool, error) {
					if m.Rows == 0 {
						ctx.Warn("Empty feature matrix for key %s", key)
						return m, false, nil
					}
					if truncate != 0 {
						if truncate > m.Cols {
							return m, false, fmt.Errorf("cannot truncate features as dimension %d is smaller than truncation dimension %d", m.Cols, truncate)
						}
						t := kaldiio.NewMatrix(m.Rows, truncate)
						for r := 0; r < m.Rows; r++ {
							copy(t.Row(r), m.Row(r)[:truncate])
						}
						m = t
					}
					out := df.Compute(m.Data, m.Rows, m.Cols)
					return kaldiio.Matrix{Rows: m.Rows, Cols: m.Cols * (o.Delta.Order + 1), Data: out}, true, nil
				}, tableStreams(ctx)...)
				return err
			}
		},
	})
}
