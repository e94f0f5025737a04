package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/jobs"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "queue.pl",
		Summary: "Run a command, or an array of jobs, through GridEngine (qsub) with run.pl's logs, as Kaldi's utils/queue.pl",
		Description: "run.pl's interface and log layout, the jobs submitted to GridEngine as one array job\n" +
			"(qsub -t A:B -sync y) that this command waits for; each log's header also says\n" +
			"\"# SGE job id: N\". Options (before JOB=), mapped as Kaldi's queue.pl default configuration:\n" +
			"--mem 4G -> -l mem_free=4G,ram_free=4G; --num-threads N -> -pe smp N; --max-jobs-run M ->\n" +
			"-tc M; --gpu N -> -l gpu=N -q g.q; --config FILE (default conf/queue.conf when present);\n" +
			"other single-dash options (-q, -l, -pe, -V) go to qsub as written.",
		ArgsUsage: "[JOB=1:n] <log-file> <command> ...",
		Examples: []string{
			"strode queue.pl --mem 4G -q all.q JOB=1:40 exp/log/fbank.JOB.log strode compute-fbank-feats scp:data/split40/JOB/wav.scp ark:-",
		},
		MinArgs: 2,
		MaxArgs: -1,
		RawArgs: true,
		Setup: func(*flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				return runJobs(&jobs.Grid{Queue: jobs.GridEngine, Stderr: ctx.Stderr}, "queue.pl", ctx)
			}
		},
	})
}
