package kaldicmd

import (
	"errors"
	"flag"
	"strings"
	"testing"
)

// A RawArgs command sees its arguments exactly as given (run.pl's
// conventions: single-dash options, space-separated values, options after
// positional words), with no --print-args echo and no option parsing.
func TestRawArgs(t *testing.T) {
	var got []string
	cmd := &Command{
		Name:        "run.pl",
		Description: "Runs a command in the background, as Kaldi's run.pl.",
		ArgsUsage:   "[JOB=1:n] <log-file> <command> ...",
		MinArgs:     2,
		MaxArgs:     -1,
		RawArgs:     true,
		Setup: func(fs *flag.FlagSet) RunFunc {
			return func(ctx *Context) error {
				got = ctx.Args()
				if ctx.Arg(0) == "fail" {
					return Exit(1, nil) // the command printed its own message
				}
				if ctx.Arg(0) == "usage" {
					return errors.New("bad") // an ordinary failure
				}
				return nil
			}
		},
	}
	args := []string{"-tc", "4", "--mem", "4G", "--config=conf/x.conf", "--verbose", "JOB=1:3", "x.JOB.log", "echo", "--help", "a b"}
	code, stdout, stderr := execute(t, cmd, args...)
	if code != 0 || stdout != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	if strings.Join(got, "|") != strings.Join(args, "|") {
		t.Errorf("args %q, want %q", got, args)
	}
	code, stdout, _ = execute(t, cmd, "--help")
	if code != 0 || !strings.Contains(stdout, "Usage: strode run.pl [options] [JOB=1:n] <log-file> <command> ...") || strings.Contains(stdout, "Standard options") {
		t.Errorf("--help: exit %d, %q", code, stdout)
	}
	code, _, stderr = execute(t, cmd, "x.log")
	if code != 1 || !strings.Contains(stderr, "expected at least 2 argument(s), got 1") {
		t.Errorf("too few: exit %d, %q", code, stderr)
	}
	code, _, stderr = execute(t, cmd, "fail", "x")
	if code != 1 || stderr != "" {
		t.Errorf("Exit(1, nil): exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = execute(t, cmd, "usage", "x")
	if code != FailureStatus || stderr != "ERROR (strode run.pl) bad\n" {
		t.Errorf("failure: exit %d, stderr %q", code, stderr)
	}
	if (&ExitError{Code: 3}).Error() != "exit status 3" {
		t.Error("ExitError without a cause must still print")
	}
}
