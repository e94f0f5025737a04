package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/jobs"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "slurm.pl",
		Summary: "Run a command, or an array of jobs, through Slurm (sbatch) with run.pl's logs, as Kaldi's utils/slurm.pl",
		Description: "run.pl's interface and log layout, the jobs submitted to Slurm as one array job\n" +
			"(sbatch --array=A-B%M --parsable --wait) that this command waits for; each log's header also\n" +
			"says \"# Slurm job id: N\". Options (before JOB=, space-separated values), mapped as Kaldi's\n" +
			"slurm.pl default configuration: --mem 4G -> --mem-per-cpu 4G; --num-threads N ->\n" +
			"--cpus-per-task N --ntasks-per-node=1; --time T -> --time T; --gpu N -> --gres=gpu:N;\n" +
			"--max-jobs-run M (or -tc M) -> the array's %M; --config FILE (default conf/slurm.conf when\n" +
			"present) reads Kaldi's queue configuration syntax; other single-dash options (-p part) go to\n" +
			"sbatch as written. Unlike Kaldi's default, no partition is chosen (-p shared / -p gpu).",
		ArgsUsage: "[JOB=1:n] <log-file> <command> ...",
		Examples: []string{
			"strode slurm.pl --mem 4G --max-jobs-run 10 JOB=1:40 exp/log/fbank.JOB.log strode compute-fbank-feats scp:data/split40/JOB/wav.scp ark:-",
		},
		MinArgs: 2,
		MaxArgs: -1,
		RawArgs: true,
		Setup: func(*flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				return runJobs(&jobs.Grid{Queue: jobs.Slurm, Stderr: ctx.Stderr}, "slurm.pl", ctx)
			}
		},
	})
}
