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
		},
		MinArgs: 1,
		MaxArgs: -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			md := fs.String("md", "", "also write the Markdown table to this file")
			js := fs.String("json", "", "also write the rows as JSON to this file")
			return func(ctx *kaldicmd.Context) error {
				rows, err := report.Collect(ctx.Args())
				if err != nil {
					return err
				}
				if err := report.WriteMarkdown(ctx.Stdout, rows); err != nil {
					return err
				}
				if *md != "" {
					if err := report.WriteMarkdownFile(*md, rows); err != nil {
						return err
					}
				}
				if *js != "" {
					return report.WriteJSONFile(*js, rows)
				}
				return nil
			}
		},
	})
}
