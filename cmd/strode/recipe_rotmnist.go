package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/rotmnist"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "rotmnist",
		Summary: "Train NODE, ODE-RNN, STRODE or STRODE-RNN on Rotating MNIST and score inferred frame times",
		Description: "Generates (once, kept in --data-dir) the STRODE paper's Rotating MNIST videos: MNIST digits on a\n" +
			"64x64 canvas rotating at constant speed, frames at Hawkes or exponential times; trains one model\n" +
			"(CNN encoder, latent ODE, CNN decoder; STRODE infers the frame times) to predict the next frame,\n" +
			"keeps the best validation-MSE epoch and prints its test CS (and the index baseline's), gap r and\n" +
			"MSE (x1e-3, the paper's unit); writes <out>/results.json, <out>/strip.png (.svg) and the model.",
		Examples: []string{
			"strode rotmnist --subset=hawkes --model=strode --seed=1 --mnist-dir=../shared/data/mnist --out=exp/rotmnist/hawkes/strode/seed1",
			"strode rotmnist --subset=exp --model=node --quick",
		},
		MaxArgs: 0,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := rotmnist.DefaultOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				o.SetExplicit(fs)
				_, err := rotmnist.Run(o, ctx.Stdout, ctx.Stderr, ctx.Log)
				return err
			}
		},
	})
}
