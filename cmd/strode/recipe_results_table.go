package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/report"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "results-table",
		Summary: "Print a recipe's results: WER, SER, held-out frame accuracy, train time and decode RTF per model and set",
		Description: "Reads every decode_SET directory of each model directory (best_wer from the scoring sweep and\n" +
			"the %SER of the same compute-wer file, decode_time) and the model's final.am (training history),\n" +
			"and prints one Markdown table row per model and set.",
		ArgsUsage: "<model-dir> [<model-dir> ...]",
		Examples: []string{
			"strode results-table --md=exp/strode_results.md --json=exp/strode_results.json exp/sru exp/strode",
			"strode results-table --summary-json=exp/fsdd/results.json --adapt-rounds=3 exp/fsdd/sru exp/fsdd/strode",
		},
		MinArgs: 1,
		MaxArgs: -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var o report.TableOptions
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return report.Table(ctx.Stdout, ctx.Args(), o)
			}
		},
	})
}
