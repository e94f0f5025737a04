package jobs

import (
	"context"
	"errors"
	"fmt"
	"io"
)

// Runner runs the jobs of a Spec: Local, or Grid for Slurm and GridEngine.
type Runner interface {
	Run(ctx context.Context, s *Spec) (Result, error)
}

// Execute is the whole of `run.pl`, `slurm.pl` or `queue.pl` (prog): it parses
// args, runs the jobs through r and returns the exit status: 0 when every job
// succeeded; 1 after printing run.pl's failure summary, or after a usage or
// submission error, to stderr.
func Execute(ctx context.Context, r Runner, prog string, args []string, stderr io.Writer) int {
	s, err := Parse(prog, args)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	res, err := r.Run(ctx, s)
	if err != nil {
		if !errors.Is(err, errReported) {
			fmt.Fprintln(stderr, err)
		}
		return 1
	}
	if res.Failed > 0 {
		fmt.Fprintln(stderr, s.FailureMessage(res.Failed))
		return 1
	}
	return 0
}

// errReported is a failure whose message the runner already printed.
var errReported = errors.New("reported")
