package main

import (
	"flag"

	"github.com/strode-asr/strode/acoustic/trainer"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "average-models",
		Summary: "Average the parameters of acoustic models (nnet3-average)",
		Description: "Writes the elementwise mean of the models' parameters to <model-out> (atomically). The models must\n" +
			"have the same options, feature pipeline and tensors. Adam's moments m and v (and SGD's momentum), which\n" +
			"train-iter leaves in each job's model, are averaged elementwise too, and Adam's step count is the rounded\n" +
			"mean: each job's v estimates E[g^2] on its archive, their mean on all of them, and the next iteration's\n" +
			"jobs start from it. (nnet3's jobs run plain natural-gradient SGD, so no optimizer state survives a job\n" +
			"there; restarting Adam from zero moments every iteration would make each job's first steps lr*sign(g)\n" +
			"whatever the gradients' scale.) Averaging one model is the identity, bit for bit.",
		ArgsUsage: "<model-in-1> <model-in-2> ... <model-in-N> <model-out>",
		Examples:  []string{"strode average-models exp/p/6.1.mdl exp/p/6.2.mdl exp/p/6.3.mdl exp/p/6.mdl"},
		MinArgs:   2, MaxArgs: -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				args := ctx.Args()
				f, err := trainer.AverageFiles(args[:len(args)-1])
				if err != nil {
					return err
				}
				if err := f.Save(args[len(args)-1]); err != nil {
					return err
				}
				ctx.Log("averaged %d models into %s", len(args)-1, args[len(args)-1])
				return nil
			}
		},
	})
}
