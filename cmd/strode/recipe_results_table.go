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
			md := fs.String("md", "", "also write the Markdown table to this file")
			js := fs.String("json", "", "also write the rows as JSON to this file")
			summary := fs.String("summary-json", "", "also write {MODEL: {wer, wer_line}} to this file (one decode set per model; recipes/fsdd's results.json)")
			lmDir := fs.String("lm-dir", "", "add the LM's perplexity and OOV rate on each set from DIR/ppl_SET.txt (ngram -ppl output; recipes/kaldi's exp/strode_lm)")
			targets := fs.String("targets", "", "name the target set of every row (e.g. \"mono (127 pdfs)\")")
			rounds := fs.Int("adapt-rounds", 0, "with --summary-json: add each model's \"adapted\" WER from its last adaptation round MODEL/adaptN (adapt for N = 1; recipes/fsdd stage 9)")
			return func(ctx *kaldicmd.Context) error {
				rows, err := report.Collect(ctx.Args())
				if err != nil {
					return err
				}
				if *lmDir != "" {
					if err := report.AddLM(rows, *lmDir); err != nil {
						return err
					}
				}
				for i := range rows {
					rows[i].Targets = *targets
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
					if err := report.WriteJSONFile(*js, rows); err != nil {
						return err
					}
				}
				if *summary != "" {
					sums, err := report.Summarize(ctx.Args(), rows, *rounds)
					if err != nil {
						return err
					}
					return report.WriteSummaryJSONFile(*summary, sums)
				}
				return nil
			}
		},
	})
}
