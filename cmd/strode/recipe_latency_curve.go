package main

import (
	"flag"
	"io"

	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/latency"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "latency-curve",
		Summary: "WER against look-ahead of causal models: fixed target delays as a line, the learned look-ahead as points",
		Description: "Reads runs files as recipes/kaldi/run.sh writes them for strode compare (exp/strode_compare.runs: one\n" +
			"\"MODEL SET SEED DECODE_DIR/best_wer\" per line), one per experiment, each as LABEL=FILE (the label names\n" +
			"its rows; a file of several models gives LABEL/MODEL) or FILE (rows named by model). Each run's look-ahead\n" +
			"is read beside its best_wer: the decode's lookahead_stats.JOB files (strode forward --lookahead-stats),\n" +
			"added up over jobs and seeds; without them, from DECODE_DIR/../final.am when that model's look-ahead is\n" +
			"fixed (right context + --target-delay). Prints a Markdown table (per row: mean and p95 look-ahead in frames,\n" +
			"as asked and in frame order, the WER per seed and its mean +- s.e.) and with --png draws WER against mean\n" +
			"look-ahead: the fixed rows joined as one line, each --head-variant=lookahead row a point with a dotted\n" +
			"whisker to its p95.",
		ArgsUsage: "[LABEL=]<runs-file> ...",
		Examples: []string{
			"strode latency-curve --set=dev --png=exp/latency.png --md=exp/latency.md delay0=EXP/causal/strode_compare.runs \\\n" +
				"    delay2=EXP/delay2/strode_compare.runs delay4=EXP/delay4/strode_compare.runs delay8=EXP/delay8/strode_compare.runs \\\n" +
				"    w0.02=EXP/la_w0.02/strode_compare.runs w0.05=EXP/la_w0.05/strode_compare.runs",
		},
		MinArgs: 1, MaxArgs: -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var set, png, md string
			fs.StringVar(&set, "set", "", "the set (the runs' second field, e.g. dev) to plot; needed when the runs have several")
			fs.StringVar(&png, "png", "", "draw the curve to this PNG, and to the same name with .svg (or an .svg alone)")
			fs.StringVar(&md, "md", "", "write the table to this Markdown file too (it is printed either way)")
			return func(ctx *kaldicmd.Context) error {
				var in []latency.Input
				for _, a := range ctx.Args() {
					in = append(in, latency.ParseInput(a))
				}
				rows, err := latency.Read(in, set)
				if err != nil {
					return err
				}
				if err := latency.WriteMarkdown(ctx.Stdout, rows); err != nil {
					return err
				}
				if md != "" {
					if err := atomicfile.Write(md, func(w io.Writer) error { return latency.WriteMarkdown(w, rows) }); err != nil {
						return err
					}
					ctx.Log("wrote %s", md)
				}
				if png != "" {
					if err := latency.SaveFigure(png, rows); err != nil {
						return err
					}
					ctx.Log("wrote %s", png)
				}
				return nil
			}
		},
	})
}
