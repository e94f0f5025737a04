package jobs

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Local runs jobs on this machine, as Kaldi's run.pl.
type Local struct {
	// MaxJobs caps the jobs running at once; 0 means run.pl's default
	// (see DefaultMaxJobs) unless the Spec sets --max-jobs-run or -tc.
	MaxJobs int
	// Stderr receives run.pl's messages (warnings, the failure summary).
	Stderr io.Writer
	// Now is the clock (time.Now when nil); tests fix it.
	Now func() time.Time
}

// Result says how a set of jobs went.
type Result struct {
	Total, Failed int
	Logs          []string // each job's log, in job order
}

// pick is run.pl's --pick: which jobs to (re)run given their old logs.
type pick string

const (
	pickAll        pick = "all"
	pickNone       pick = "none"
	pickFailed     pick = "failed"
	pickIncomplete pick = "incomplete"
)

// localOptions interprets the options run.pl uses; every other option is
// accepted and ignored, as run.pl does.
func localOptions(s *Spec, stderr io.Writer) (maxJobs int, gpu bool, pk pick, err error) {
	pk = pickAll
	for _, o := range s.Options {
		name, value := o.Name, o.Value
		if o.Name == "" {
			if o.Words[0] != "-tc" {
				continue // a queue option (-q, -l, -pe, -sync, -V): run.pl ignores it
			}
			name, value = "max_jobs_run", o.Words[1]
		}
		switch name {
		case "max_jobs_run":
			n, err := strconv.Atoi(value)
			if err != nil || n <= 0 {
				return 0, false, "", usagef("%s: invalid option --max-jobs-run %s", s.Prog, value)
			}
			if maxJobs <= 0 || n < maxJobs { // given twice, the smaller wins (run.pl)
				maxJobs = n
			}
		case "gpu":
			gpu = perlTrue(value)
		case "pick":
			switch p := pick(value); p {
			case pickAll, pickNone, pickFailed, pickIncomplete:
				pk = p
			default:
				fmt.Fprintf(stderr, "%s: ERROR: --pick argument must be one of 'all', 'none', 'failed' or 'incomplete'\n", s.Prog)
			}
		}
	}
	return maxJobs, gpu, pk, nil
}

// perlTrue is Perl's truth of a string: everything but "" and "0".
func perlTrue(s string) bool { return s != "" && s != "0" }

// DefaultMaxJobs is run.pl's default for --max-jobs-run: the number of
// processors (GPUs from `nvidia-smi -L` with --gpu), raised to the number of
// jobs when that is less than 1.4 times the processors, so a few leftover
// jobs do not run in a second wave.
func DefaultMaxJobs(numJobs int, gpu bool, stderr io.Writer, prog string) int {
	if gpu {
		n := 0
		if out, err := exec.Command("nvidia-smi", "-L").Output(); err == nil {
			n = strings.Count(string(out), "\n")
		}
		if n == 0 {
			n = 1
			fmt.Fprintf(stderr, "%s: Warning: failed to detect number of GPUs from nvidia-smi, using %d\n", prog, n)
		}
		return n
	}
	n := runtime.NumCPU()
	if numJobs > n && float64(numJobs) < 1.4*float64(n) {
		n = numJobs
	}
	return n
}

// Run runs the jobs of s, at most MaxJobs at once, each as `bash -c "( cmd)"`
// with stdout and stderr appended to its log between run.pl's header and
// footer. Cancelling ctx kills the running jobs' shells (run.pl has no such
// hook; the caller wires it to SIGINT/SIGTERM). The error is for problems
// before any job ran (bad options); a job's failure only counts in Result.
func (l *Local) Run(ctx context.Context, s *Spec) (Result, error) {
	stderr := l.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	for _, w := range s.Warnings {
		fmt.Fprintln(stderr, w)
	}
	maxJobs, gpu, pk, err := localOptions(s, stderr)
	if err != nil {
		return Result{}, err
	}
	if l.MaxJobs > 0 {
		maxJobs = l.MaxJobs
	}
	if maxJobs <= 0 {
		maxJobs = DefaultMaxJobs(s.NumJobs(), gpu, stderr, s.Prog)
	}
	jobs := s.Jobs()
	res := Result{Total: len(jobs), Logs: make([]string, len(jobs))}
	failed := make([]bool, len(jobs))
	sem := make(chan struct{}, maxJobs)
	var wg sync.WaitGroup
	for i, j := range jobs {
		res.Logs[i] = j.LogFile
		sem <- struct{}{}
		wg.Add(1)
		go func(i int, j Job) {
			defer func() { <-sem; wg.Done() }()
			ok, err := l.runOne(ctx, j, pk)
			if err != nil {
				fmt.Fprintf(stderr, "%s: %v\n", s.Prog, err)
			}
			failed[i] = !ok
		}(i, j)
	}
	wg.Wait()
	for _, f := range failed {
		if f {
			res.Failed++
		}
	}
	return res, nil
}

func (l *Local) now() time.Time {
	if l.Now != nil {
		return l.Now()
	}
	return time.Now()
}

// runOne runs one job and reports whether it succeeded.
func (l *Local) runOne(ctx context.Context, j Job, pk pick) (bool, error) {
	if pk != pickAll {
		st, err := ReadEndStatus(j.LogFile)
		switch {
		case err != nil && !errors.Is(err, os.ErrNotExist):
			return false, fmt.Errorf("reading %s for --pick: %w", j.LogFile, err)
		case st.OK():
			return true, nil // done before: not run again
		case st.Found && pk != pickFailed:
			return false, nil // failed before, and --pick does not re-run failures
		}
	}
	if dir := filepath.Dir(j.LogFile); dir != "." {
		os.MkdirAll(dir, 0o777) // run.pl: mkdir -p `dirname $logfile` 2>/dev/null
	}
	start := l.now()
	if err := os.WriteFile(j.LogFile, []byte(Header(j.Command, start)), 0o666); err != nil {
		return false, fmt.Errorf("Error opening log file %s: %w", j.LogFile, err)
	}
	log, err := os.OpenFile(j.LogFile, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return false, fmt.Errorf("Error opening log file %s: %w", j.LogFile, err)
	}
	// run.pl pipes "( cmd) 2>>log >>log" into bash: the subshell means a
	// command killed by a signal shows as code 128+N, bash itself surviving.
	cmd := exec.Command("bash", "-c", "( "+j.Command+")")
	cmd.Stdin = nil // /dev/null
	// Its own process group, so cancelling kills the whole job (pipes and
	// subshells included), not only the shell.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Stdout = log
	cmd.Stderr = log
	status := "code 0"
	ok := true
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(log, "%s: cannot start bash: %v\n", filepath.Base(os.Args[0]), err)
		status, ok = "code 127", false
	} else {
		done := make(chan struct{})
		go func() {
			select {
			case <-ctx.Done():
				syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
			case <-done:
			}
		}()
		err := cmd.Wait()
		close(done)
		status, ok = exitStatus(cmd.ProcessState, err)
	}
	end := l.now()
	elapsed := end.Unix() - start.Unix()
	_, werr := io.WriteString(log, Footer(status, end, elapsed, 1))
	if cerr := log.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		return false, fmt.Errorf("Error opening log file %s (again): %w", j.LogFile, werr)
	}
	return ok, nil
}

// exitStatus words a finished process's status as run.pl does from Perl's $?.
func exitStatus(ps *os.ProcessState, err error) (string, bool) {
	if ps == nil {
		return "code 127", false
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return fmt.Sprintf("code 0; signal %d", int(ws.Signal())), false
	}
	code := ps.ExitCode()
	return fmt.Sprintf("code %d", code), code == 0 && err == nil
}

// tailLines returns the last n lines of a file, for error messages.
func tailLines(path string, n int) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
		if len(lines) > n {
			lines = lines[1:]
		}
	}
	return strings.Join(lines, "\n")
}
