package main

import (
	"flag"
	"os"

	"github.com/strode-asr/strode/acoustic/kaldinnet"
	"github.com/strode-asr/strode/acoustic/trainer"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "train-iter",
		Summary: "One job of one iteration of data-parallel training (nnet3-train's part in train_dnn.py)",
		Description: "Starts from <model-in> (with the optimizer state an averaged model carries; none in an initial model)\n" +
			"and trains it on one archive of get-egs examples at --learning-rate, for one pass over the archive or\n" +
			"--num-minibatches minibatches, seeded by --srand, --iter and --job (a re-run job gives the same model).\n" +
			"The examples are an <egs-rspecifier>, or with --egs-dir archive ((--num-archives-processed + --job - 1)\n" +
			"mod N) + 1 of the directory's N, so one array job JOB=1:N covers an iteration. Writes <model-out>\n" +
			"atomically with the job's Adam (or SGD) state and statistics, for average-models.",
		ArgsUsage: "<model-in> [<egs-rspecifier>] <model-out>",
		Examples: []string{
			"strode train-iter --learning-rate=0.002 --srand=777 --iter=5 --job=2 exp/p/5.mdl ark:exp/p/egs/egs.7.ark exp/p/6.2.mdl",
			"run.pl JOB=1:4 exp/p/log/train.5.JOB.log strode train-iter --egs-dir=exp/p/egs --num-archives-processed=13 \\\n" +
				"    --job=JOB --iter=5 --learning-rate=0.004 exp/p/5.mdl exp/p/6.JOB.mdl",
		},
		MinArgs: 2, MaxArgs: 3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			s := kaldinnet.IterSetup{Train: trainer.DefaultTrainOptions(), Iter: trainer.IterationOptions{Seed: 0, Job: 1}}
			s.Register(fs)
			kaldinnet.RegisterIterTrainOptions(fs, &s.Train)
			return func(ctx *kaldicmd.Context) error {
				args := ctx.Args()
				s.ModelIn, s.ModelOut = args[0], args[len(args)-1]
				if len(args) == 3 {
					s.Egs = args[1]
				}
				if fi, err := os.Stat(s.ModelIn); err == nil && fi.Size() >= paperModelBytes {
					trainingGC()
				}
				_, err := kaldinnet.TrainIteration(s, ctx.Log)
				return err
			}
		},
	})
}

// paperModelBytes is the size of model file from which train-iter counts a
// model as paper-sized (trainingGC): a job's model holds its parameters and
// Adam's two moments as float64, ≈ 600 MB at the paper preset's 25 M
// parameters and ≈ 21 MB at the small one's 0.88 M.
const paperModelBytes = 256 << 20
