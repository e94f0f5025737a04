package main

import (
	"context"
	"flag"
	"os"
	"os/signal"
	"syscall"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/jobs"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "run.pl",
		Summary: "Run a command, or an array of jobs, on this machine with logs, as Kaldi's utils/run.pl",
		Description: "Runs <command> (its words joined with run.pl's quoting and given to bash) with stdout and\n" +
			"stderr in <log-file>, between run.pl's header and footer lines. With JOB=A:B (any identifier),\n" +
			"runs one job per number, the identifier replaced in the log name and the command, at most\n" +
			"--max-jobs-run (or -tc) at once (default: the number of processors). Exits 0 when all jobs\n" +
			"succeed, else prints \"run.pl: K / N failed, log is in <log>\" and exits 1.\n" +
			"Options (before JOB=, space-separated values): --max-jobs-run N, -tc N, --gpu N,\n" +
			"--pick all|none|failed|incomplete; queue options (--mem, --num-threads, --time, --config,\n" +
			"-q, -l, -pe, -V, -sync) are accepted and ignored, as run.pl does.",
		ArgsUsage: "[JOB=1:n] <log-file> <command> ...",
		Examples: []string{
			"strode run.pl exp/log/foo.log echo hello",
			"strode run.pl --max-jobs-run 4 JOB=1:8 exp/log/fbank.JOB.log strode compute-fbank-feats scp:data/split8/JOB/wav.scp ark:-",
		},
		MinArgs: 2,
		MaxArgs: -1,
		RawArgs: true,
		Setup: func(*flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				return runJobs(&jobs.Local{Stderr: ctx.Stderr}, "run.pl", ctx)
			}
		},
	})
}

// runJobs is the shared body of run.pl, slurm.pl and queue.pl: SIGINT and
// SIGTERM cancel the jobs (killed locally, scancel/qdel on a queue); the
// runner prints its own messages, so failures exit 1 without an ERROR line.
func runJobs(r jobs.Runner, prog string, ctx *kaldicmd.Context) error {
	sigctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if code := jobs.Execute(sigctx, r, prog, ctx.Args(), ctx.Stderr); code != 0 {
		return kaldicmd.Exit(code, nil)
	}
	return nil
}
