package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/rotmnist"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "rotmnist-table",
		Summary:     "Markdown table of Rotating MNIST runs (mean ± std over seeds) beside the paper's Table 1",
		Description: "Reads every results.json under <dir> (written by strode rotmnist) and prints, per subset and\nmodel, test CS, gap r, MSE x1e-3, the index baseline's CS and the paper's figures.",
		ArgsUsage:   "<dir>",
		Examples:    []string{"strode rotmnist-table exp/rotmnist > exp/rotmnist/table.md"},
		MinArgs:     1,
		MaxArgs:     1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			out := fs.String("out", "", "also write the table to this file")
			return func(ctx *kaldicmd.Context) error {
				t, err := rotmnist.Table(ctx.Arg(0))
				if err != nil {
					return err
				}
				if *out != "" {
					if err := atomicfile.WriteBytes(*out, []byte(t)); err != nil {
						return err
					}
				}
				_, err = fmt.Fprint(ctx.Stdout, t)
				return err
			}
		},
	})
}
