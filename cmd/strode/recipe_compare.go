package main

import (
	"flag"
	"io"
	"os"

	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/compare"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "compare",
		Summary: "Compare models over many runs: mean WER ± s.e. per model, paired differences with t intervals",
		Description: "Reads one run per line of <runs-file> (\"-\": stdin) and prints Markdown tables: per model the mean\n" +
			"WER ± standard error over its runs, the WER pooled over errors/words, and (when a condition has\n" +
			"several seeds) the mean over conditions; per pair of models (every pair, later - earlier in order\n" +
			"of first appearance, or each model - --baseline) the mean PAIRED difference over runs matched on\n" +
			"condition and seed, its s.e., a --confidence interval (Student t, n-1 degrees of freedom), the t\n" +
			"statistic, and how often B was better/worse/tied. Runs without a partner are listed under the table\n" +
			"and left out of that pair (they still count in their model's row).\n" +
			compare.RunsFileHelp +
			"Why paired: the held-out speaker and the seed move the WER far more than the models differ; both\n" +
			"runs of a pair share them, so they cancel in the difference. The interval treats the pairs\n" +
			"(speakers x seeds) as independent, an approximation: pairs on one speaker share that speaker;\n" +
			"so when a condition has several seeds a second table averages each condition's differences first\n" +
			"and takes the interval over conditions (the conservative one: the speaker as the unit).",
		ArgsUsage: "<runs-file|->",
		Examples: []string{
			"strode compare --baseline=sru --json=exp/compare.json --png=exp/compare.png exp/runs.txt",
			"for s in george lucas; do for seed in 777 781; do for m in sru strode; do\n" +
				"      echo \"$m $s $seed exp/fsdd_${s}_$seed/results.json\"; done; done; done | strode compare --baseline=sru -",
		},
		MinArgs: 1, MaxArgs: 1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := compare.DefaultOptions()
			var jsonOut, pngOut string
			fs.StringVar(&o.Baseline, "baseline", "", "pair every model with this one (model - baseline); empty: every pair of models")
			fs.Float64Var(&o.Confidence, "confidence", o.Confidence, "confidence level of the paired intervals, in (0, 1)")
			fs.StringVar(&jsonOut, "json", "", "write every number to this JSON file (e.g. compare.json)")
			fs.StringVar(&pngOut, "png", "", "draw the runs to this PNG, and to the same name with .svg (e.g. compare.png)")
			return func(ctx *kaldicmd.Context) error {
				var in io.Reader = ctx.Stdin
				name := ctx.Arg(0)
				if name != "-" {
					f, err := os.Open(name)
					if err != nil {
						return err
					}
					defer f.Close()
					in = f
				}
				runs, err := compare.ReadRuns(in, name, compare.OpenFile)
				if err != nil {
					return err
				}
				rep, err := compare.Compare(runs, o)
				if err != nil {
					return err
				}
				if err := compare.WriteMarkdown(ctx.Stdout, rep); err != nil {
					return err
				}
				if jsonOut != "" {
					if err := atomicfile.Write(jsonOut, func(w io.Writer) error { return compare.WriteJSON(w, rep) }); err != nil {
						return err
					}
					ctx.Log("wrote %s", jsonOut)
				}
				if pngOut != "" {
					svg, err := compare.SaveFigure(pngOut, rep)
					if err != nil {
						return err
					}
					ctx.Log("wrote %s and %s", pngOut, svg)
				}
				return nil
			}
		},
	})
}
