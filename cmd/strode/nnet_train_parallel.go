package main

import (
	"flag"
	"os"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/kaldinnet"
	"github.com/strode-asr/strode/acoustic/parallel"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "train-parallel",
		Summary: "Data-parallel training with model averaging through a Kaldi job runner (steps/nnet3/train_dnn.py)",
		Description: "Trains on the archives of `strode get-egs` in iterations: iteration N runs --num-jobs jobs\n" +
			"(--num-jobs-initial growing to --num-jobs-final) as one array job through --cmd,\n" +
			"  <cmd> JOB=1:n <dir>/log/train.N.JOB.log strode train-iter ... <dir>/N.mdl <dir>/N+1.JOB.mdl\n" +
			"each on its own archive at the effective learning rate times the number of jobs (decaying from\n" +
			"--initial-effective-lrate to --final-effective-lrate), reruns a failed job up to --num-retries times,\n" +
			"averages the jobs' models (parameters and Adam moments, see average-models) into <dir>/N+1.mdl, and logs\n" +
			"'iter N: held-out CE x, frame accuracy y%' on valid_diagnostic.ark. Re-run after a crash or kill, it\n" +
			"continues after the last iteration whose averaged model exists, with the results of an uninterrupted\n" +
			"run (every job is seeded by --srand, the iteration and the job). Ends with <dir>/final.mdl, the last or\n" +
			"best model without optimizer state. The model options (--preset, --model, sizes) are train's.",
		ArgsUsage: "<egs-dir> <dir>",
		Examples: []string{
			"strode train-parallel --cmd='strode run.pl --max-jobs-run 4' --num-jobs-initial=2 --num-jobs-final=4 \\\n" +
				"    --num-epochs=4 --preset=small --model=strode exp/strode_par/egs exp/strode_par",
			"strode train-parallel --cmd='utils/slurm.pl --mem 4G' --num-jobs-final=8 exp/p/egs exp/p",
		},
		MinArgs: 2, MaxArgs: 2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			preset := "paper"
			fs.StringVar(&preset, "preset", preset, "model sizes: paper (9x900 SRU, ODE state 128) or small (4x256, for CPUs)")
			o := parallel.DefaultOptions()
			o.Model, _ = am.Preset(preset)
			o.Register(fs)
			o.Model.Register(fs)
			kaldinnet.RegisterIterTrainOptions(fs, &o.Train)
			return func(ctx *kaldicmd.Context) error {
				mo, err := presetWithOverrides(fs, preset)
				if err != nil {
					return err
				}
				o.Model = mo
				if o.Strode, err = os.Executable(); err != nil {
					return err
				}
				o.Stderr = ctx.Stderr
				_, err = parallel.Train(ctx.Arg(0), ctx.Arg(1), o, ctx.Log)
				return err
			}
		},
	})
}
