package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/sine"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "sine",
		Summary: "Train STRODE on irregularly sampled sine waves and score inferred event times",
		Description: "Generates the STRODE paper's sine-wave data (times from a Poisson or Hawkes process),\n" +
			"trains sequential STRODE with the paper's and the context encoder and the unit-gap NODE\n" +
			"(--variant: paper, the model as published, or phase-state, a unit-circle ODE state over three gaps),\n" +
			"and prints CS, gap r and MSE (mean ± std over seeds) beside the index baseline;\n" +
			"writes <out>/results.json and <out>/scatter.png (and the same figure as scatter.svg).",
		Examples: []string{
			"strode sine --process=poisson --seeds=3 --out=exp/sine_poisson",
			"strode sine --process=hawkes --quick",
			"strode sine --process=hawkes --seeds=3 --variant=phase-state --learning-rate=1e-3",
		},
		MaxArgs: 0,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := sine.DefaultOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				_, err := sine.Run(o, ctx.Stdout, ctx.Stderr)
				return err
			}
		},
	})
}
