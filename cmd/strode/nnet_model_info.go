package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "model-info",
		Summary: "Print an acoustic model's architecture, parameter count, feature pipeline and training history",
		Description: "Prints what a strode acoustic model file records: kind and sizes, parameters per part (encoder,\n" +
			"ode-rnn or head, decoder, output), per tensor and in total, the feature pipeline it expects, the\n" +
			"number of pdfs and the per-epoch training history.\n" +
			"Without a model file, --preset (with --model, --num-pdfs, --feat-dim, the splicing context and any\n" +
			"size option of strode train) prints the architecture and parameter counts of the model that\n" +
			"strode train would build, without building it (e.g. the paper's sizes).",
		ArgsUsage: "[<model-in>]",
		Examples: []string{
			"strode model-info exp/strode/final.am",
			"strode model-info --preset=paper --model=odernn --num-pdfs=5000 --feat-dim=40",
		},
		MinArgs: 0, MaxArgs: 1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			preset, featDim, left, right := "", 0, 0, 0
			fs.StringVar(&preset, "preset", preset, "without a model file: the sizes of this preset (paper or small), as strode train --preset")
			fs.IntVar(&featDim, "feat-dim", featDim, "without a model file: features per frame before splicing")
			fs.IntVar(&left, "left-context", left, "without a model file: frames of left context spliced")
			fs.IntVar(&right, "right-context", right, "without a model file: frames of right context spliced")
			numPdfs := 0
			fs.IntVar(&numPdfs, "num-pdfs", numPdfs, "without a model file: number of outputs")
			mo, _ := am.Preset("paper")
			mo.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if len(ctx.Args()) == 1 {
					f, err := am.Load(ctx.Arg(0))
					if err != nil {
						return err
					}
					return f.WriteInfo(ctx.Stdout)
				}
				if preset == "" || featDim < 1 || numPdfs < 1 || left < 0 || right < 0 {
					return fmt.Errorf("model-info: give a model file, or --preset with --feat-dim ≥ 1 and --num-pdfs ≥ 1")
				}
				o, err := presetWithOverrides(fs, preset)
				if err != nil {
					return err
				}
				o.InputDim, o.NumPdfs = featDim*(1+left+right), numPdfs
				return am.WriteSizes(ctx.Stdout, o)
			}
		},
	})
}
