package main

import (
	"flag"

	"github.com/strode-asr/strode/acoustic/strode"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/sine"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "sine",
		Summary: "Train STRODE on irregularly sampled sine waves and score inferred event times",
		Description: "Generates the STRODE paper's sine-wave data (times from a Poisson or Hawkes process),\n" +
			"trains sequential STRODE with the paper's and the context encoder and the unit-gap NODE\n" +
			"(--variant: phase-state, the default, a unit-circle ODE state that must show each value and\n" +
			"turn on over three gaps, 3 starts per model; or paper, the model and training as published),\n" +
			"and prints CS, gap r and MSE (mean ± std over seeds) beside the index baseline;\n" +
			"writes <out>/results.json and <out>/scatter.png (and the same figure as scatter.svg).",
		Examples: []string{
			"strode sine --process=poisson --seeds=3 --out=exp/sine_poisson",
			"strode sine --process=hawkes --quick",
			"strode sine --process=hawkes --seeds=3 --variant=paper",
		},
		MaxArgs: 0,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := sine.DefaultOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if o.Model.Variant == strode.VariantPaper {
					o.PaperModel(func(name string) bool { return flagSet(fs, name) })
				}
				_, err := sine.Run(o, ctx.Stdout, ctx.Stderr)
				return err
			}
		},
	})
}
