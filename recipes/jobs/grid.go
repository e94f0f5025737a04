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
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// Grid runs jobs through a batch queue: Slurm (sbatch) or GridEngine (qsub),
// as Kaldi's slurm.pl and queue.pl. All jobs go in one array job that the
// submit command waits for (`sbatch --wait`, `qsub -sync y`): one scheduler
// transaction for N jobs, the queue itself enforcing --max-jobs-run (Slurm's
// `--array=A-B%M`, GridEngine's `-tc M`), and no sync files to poll over
// NFS (Kaldi's scripts predate --wait). Each job runs a generated bash script
// that writes run.pl's log layout plus a "# Slurm job id: N" (or "# SGE job
// id: N") header line; the job's status is read from its log's "# Ended"
// line, so a job the queue killed (no such line) counts as failed.
type Grid struct {
	Queue  *Queue
	Stderr io.Writer
	// Cwd is where the jobs run (os.Getwd when empty).
	Cwd string
	// LogWait is how long to keep looking for a log's "# Ended" line after
	// the queue says the job finished (a shared file system may lag);
	// slurm.pl's schedule (about 55 s in all) when nil.
	LogWait []time.Duration
	// PollMax caps the interval between looks at the logs while the jobs
	// run (3 s, slurm.pl's cap for its sync files, when 0).
	PollMax time.Duration
}

// Queue describes one batch system.
type Queue struct {
	Prog          string // "slurm.pl"
	System        string // "Slurm", for messages
	ConfigPath    string // the configuration read when --config is not given and it exists
	DefaultConfig string // used when neither exists
	TaskVar       string // the array task number in the job's environment
	JobIDVar      string // the job id in the job's environment
	IDLabel       string // the log header line's label: "Slurm job id"
	CancelCommand string // run with the job id when the run is cancelled
	AccountingCmd string // how to ask the queue about a job, for messages ("sacct -j")
	MissingFix    string // what to do when the submit command is not on PATH
	// MaxJobsBySubmit: --max-jobs-run goes in the array option (Slurm's %M),
	// not through the configuration (GridEngine's `option max_jobs_run=* -tc $0`).
	MaxJobsBySubmit bool
	// StarAsValue: slurm.pl also takes an `option name=* args` line without $0.
	StarAsValue bool
	// SubmitArgs are the words after the configured command and options.
	SubmitArgs func(qlog, script string, array bool, start, end, maxJobs int) []string
	// JobID finds the job id in a line of the submit command's output.
	JobID *regexp.Regexp
}

// slurm.pl's schedule for re-reading a log that does not show its end yet.
var defaultLogWait = []time.Duration{100, 200, 200, 300, 500, 500, 1000, 2000, 5000, 5000, 5000, 10000, 25000}

// gridOptions is what a Grid takes from the command line.
type gridOptions struct {
	long       map[string]string
	passed     []string // queue options passed to the submit command as written
	numThreads int
	maxJobs    int
	config     string
	configSet  bool
}

func (g *Grid) options(s *Spec) (gridOptions, error) {
	q := g.Queue
	o := gridOptions{long: map[string]string{}, numThreads: 1, config: q.ConfigPath}
	for _, opt := range s.Options {
		switch {
		case opt.Name != "":
			o.long[opt.Name] = opt.Value
		case opt.Words[0] == "-tc" && q.MaxJobsBySubmit:
			// run.pl's GridEngine spelling of --max-jobs-run; sbatch has no -tc.
			o.long["max_jobs_run"] = opt.Words[1]
		case opt.Words[0] == "-sync" && !q.MaxJobsBySubmit:
			// we always submit with -sync y
		default:
			if opt.Words[0] == "-pe" {
				if n, err := strconv.Atoi(opt.Words[2]); err == nil {
					o.numThreads = n
				}
			}
			o.passed = append(o.passed, opt.Words...)
		}
	}
	if v, ok := o.long["num_threads"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return o, usagef("%s: invalid option --num-threads %s", q.Prog, v)
		}
		o.numThreads = n
	}
	if v, ok := o.long["max_jobs_run"]; ok {
		n, err := strconv.Atoi(v)
		if err != nil || n <= 0 {
			return o, usagef("%s: invalid option --max-jobs-run %s", q.Prog, v)
		}
		o.maxJobs = n
	}
	if v, ok := o.long["config"]; ok {
		o.config, o.configSet = v, true
	}
	return o, nil
}

func (g *Grid) readConfig(o gridOptions, abs func(string) string) (*QueueConfig, error) {
	q := g.Queue
	f, err := os.Open(abs(o.config))
	if err != nil {
		if o.configSet {
			return nil, fmt.Errorf("%s: Could not open config file %s: %w", q.Prog, o.config, err)
		}
		return ParseQueueConfig(strings.NewReader(q.DefaultConfig), "default config file", q.Prog)
	}
	defer f.Close()
	return ParseQueueConfig(f, o.config, q.Prog)
}

// Run submits the jobs of s as one array job, waits for it and counts the
// jobs whose log does not end with code 0. Cancelling ctx cancels the queue
// job (scancel/qdel). The error is for what went wrong before the jobs ran
// (options, configuration, submission).
func (g *Grid) Run(ctx context.Context, s *Spec) (Result, error) {
	q := g.Queue
	stderr := g.Stderr
	if stderr == nil {
		stderr = io.Discard
	}
	for _, w := range s.Warnings {
		fmt.Fprintln(stderr, strings.Replace(w, s.Prog, q.Prog, 1))
	}
	o, err := g.options(s)
	if err != nil {
		return Result{}, err
	}
	cwd := g.Cwd
	if cwd == "" {
		if cwd, err = os.Getwd(); err != nil {
			return Result{}, fmt.Errorf("%s: %w", q.Prog, err)
		}
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return p
		}
		return filepath.Join(cwd, p)
	}
	cfg, err := g.readConfig(o, abs)
	if err != nil {
		return Result{}, err
	}
	array := s.JobName != ""
	skip := map[string]bool{}
	if q.MaxJobsBySubmit || !array {
		skip["max_jobs_run"] = true
	}
	if !array && o.maxJobs > 0 && q.MaxJobsBySubmit {
		fmt.Fprintf(stderr, "%s: Ignoring max_jobs_run since this is not an array task.\n", q.Prog)
		o.maxJobs = 0
	}
	subOpts, err := cfg.SubmitOptions(o.long, skip, q.StarAsValue, q.Prog)
	if err != nil {
		return Result{}, err
	}
	logDir := filepath.Dir(abs(s.LogFile))
	qdir := regexp.MustCompile(`/(log|LOG)/*q$`).ReplaceAllString(logDir+"/q", "/q")
	if err := os.MkdirAll(qdir, 0o777); err != nil {
		return Result{}, fmt.Errorf("%s: Cannot make the directory %s: %w", q.Prog, qdir, err)
	}
	qbase := filepath.Base(s.LogFile)
	if array {
		qbase = strings.Replace(qbase, "."+s.JobName, "", 1)
		qbase = strings.Replace(qbase, s.JobName, "", 1)
	}
	qlog := filepath.Join(qdir, qbase)
	script := regexp.MustCompile(`\.[a-zA-Z]{1,5}$`).ReplaceAllString(qlog, ".sh")
	if script == qlog {
		script += ".sh"
	}
	jobs := s.Jobs()
	for i := range jobs {
		jobs[i].LogFile = abs(jobs[i].LogFile)
	}
	if err := atomicfile.WriteBytes(script, []byte(g.jobScript(cwd, jobs, array, o.numThreads))); err != nil {
		return Result{}, fmt.Errorf("%s: %w", q.Prog, err)
	}
	os.Chmod(script, 0o755)

	argv := append(append(append(append([]string{}, cfg.Command...), subOpts...), o.passed...),
		q.SubmitArgs(qlog, script, array, s.Start, s.End, o.maxJobs)...)
	if _, err := exec.LookPath(argv[0]); err != nil {
		return Result{}, fmt.Errorf("%s: cannot run %s: %v; %s", q.Prog, argv[0], err, q.MissingFix)
	}
	os.Remove(qlog)
	for _, j := range jobs {
		// The logs of an earlier run would read as this run's ends: the job
		// rewrites its log anyway, as run.pl does.
		os.Remove(j.LogFile)
	}
	sub, err := g.start(argv, qlog, cwd)
	if err != nil {
		return Result{}, err
	}
	ended := make([]EndStatus, len(jobs))
	pending := len(jobs)
	poll := 100 * time.Millisecond
	pollMax := g.PollMax
	if pollMax <= 0 {
		pollMax = 3 * time.Second
	}
wait:
	for {
		select {
		case <-ctx.Done():
			id := sub.cancel(q.CancelCommand)
			return Result{}, fmt.Errorf("%s: interrupted; cancelled job %s with %s", q.Prog, id, q.CancelCommand)
		case <-sub.done:
			break wait
		case <-time.After(poll):
			// The logs' "# Ended" lines say the jobs are over before the
			// submit command's own polling does (sbatch --wait looks at
			// 2, 8, 32, 32 ... s): stop waiting for it once all are there.
			for i, j := range jobs {
				if !ended[i].Found {
					if st, err := readTailEndStatus(j.LogFile); err == nil && st.Found {
						ended[i] = st
						pending--
					}
				}
			}
			if pending == 0 {
				sub.stop()
				break wait
			}
			poll = min(poll*6/5, pollMax)
		}
	}
	jobID := sub.id()
	if jobID == "" && pending > 0 {
		fmt.Fprintf(stderr, "%s: Error submitting jobs to queue (return status was %s)\nqueue log file is %s, command was %s\n%s\n",
			q.Prog, sub.status, qlog, strings.Join(argv, " "), tailLines(qlog, 10))
		return Result{}, errReported
	}
	res := Result{Total: len(jobs)}
	for i, j := range jobs {
		res.Logs = append(res.Logs, j.LogFile)
		st := ended[i]
		var err error
		if !st.Found {
			st, err = g.waitEnd(ctx, j.LogFile)
		}
		switch {
		case err != nil && errors.Is(err, os.ErrNotExist):
			fmt.Fprintf(stderr, "%s: Log-file %s does not exist (job %d of %s job %s never started? see `%s %s`)\n",
				q.Prog, j.LogFile, j.ID, q.System, jobID, q.AccountingCmd, jobID)
		case err != nil:
			fmt.Fprintf(stderr, "%s: %v\n", q.Prog, err)
		case !st.Found:
			fmt.Fprintf(stderr, "%s: log-file %s has no '# Ended' line: the job was killed before it finished (time or memory limit? cancelled?); see `%s %s`\n",
				q.Prog, j.LogFile, q.AccountingCmd, jobID)
		}
		if !st.OK() {
			res.Failed++
		}
	}
	return res, nil
}

// submission is a running submit command (sbatch --wait, qsub -sync y).
type submission struct {
	cmd    *exec.Cmd
	log    *os.File
	mu     sync.Mutex
	jobID  string
	status string        // its exit status, once done is closed
	done   chan struct{} // closed when it has exited and its output is read
}

// start runs the submit command with its output appended to qlog, picking
// the job id out of its stdout.
func (g *Grid) start(argv []string, qlog, cwd string) (*submission, error) {
	q := g.Queue
	lf, err := os.OpenFile(qlog, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o666)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", q.Prog, err)
	}
	fmt.Fprintf(lf, "# %s\n", strings.Join(argv, " "))
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = cwd // the queue records it as the job's working directory
	cmd.Stderr = lf
	out, err := cmd.StdoutPipe()
	if err != nil {
		lf.Close()
		return nil, fmt.Errorf("%s: %w", q.Prog, err)
	}
	if err := cmd.Start(); err != nil {
		lf.Close()
		return nil, fmt.Errorf("%s: cannot run %s: %w; %s", q.Prog, argv[0], err, q.MissingFix)
	}
	sub := &submission{cmd: cmd, log: lf, done: make(chan struct{})}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			line := sc.Text()
			fmt.Fprintln(lf, line)
			if m := q.JobID.FindStringSubmatch(line); m != nil {
				sub.mu.Lock()
				if sub.jobID == "" {
					sub.jobID = m[1]
				}
				sub.mu.Unlock()
			}
		}
		werr := cmd.Wait()
		sub.status = "0"
		if werr != nil {
			sub.status = werr.Error()
		}
		lf.Close()
		close(sub.done)
	}()
	return sub, nil
}

func (s *submission) id() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.jobID
}

// stop ends the submit command, which is only waiting: the jobs are over
// (killing `sbatch --wait` leaves its job alone).
func (s *submission) stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	<-s.done
}

// cancel ends the submit command and cancels its job; it returns the job id.
func (s *submission) cancel(cancelCommand string) string {
	s.cmd.Process.Signal(syscall.SIGTERM)
	<-s.done
	id := s.id()
	if id != "" && cancelCommand != "" {
		c := exec.Command(cancelCommand, id)
		if lf, err := os.OpenFile(s.log.Name(), os.O_WRONLY|os.O_APPEND, 0); err == nil {
			c.Stdout, c.Stderr = lf, lf
			defer lf.Close()
		}
		c.Run()
	}
	return id
}

// waitEnd reads a log's end status, looking again on the LogWait schedule
// while it has none.
func (g *Grid) waitEnd(ctx context.Context, log string) (EndStatus, error) {
	wait := g.LogWait
	if wait == nil {
		wait = make([]time.Duration, len(defaultLogWait))
		for i, d := range defaultLogWait {
			wait[i] = d * time.Millisecond
		}
	}
	for i := 0; ; i++ {
		st, err := ReadEndStatus(log)
		if (err == nil && st.Found) || i >= len(wait) || ctx.Err() != nil {
			return st, err
		}
		time.Sleep(wait[i])
	}
}

// shellQuote quotes s for bash as one word.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// jobScript is the batch script: it picks its job from the array task
// number and writes run.pl's log layout around the command.
func (g *Grid) jobScript(cwd string, jobs []Job, array bool, threads int) string {
	q := g.Queue
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# Written by strode %s: one job of an array, chosen by $%s.\n", q.Prog, q.TaskVar)
	fmt.Fprintf(&b, "cd %s || exit 1\n[ -f ./path.sh ] && . ./path.sh\n", shellQuote(cwd))
	if array {
		fmt.Fprintf(&b, "case \"${%s:-}\" in\n", q.TaskVar)
		for _, j := range jobs {
			fmt.Fprintf(&b, "  %d) log=%s; cmd=%s ;;\n", j.ID, shellQuote(j.LogFile), shellQuote(j.Command))
		}
		fmt.Fprintf(&b, "  *) echo \"strode %s: no job number '${%s:-}' in this array\" >&2; exit 1 ;;\nesac\n", q.Prog, q.TaskVar)
	} else {
		fmt.Fprintf(&b, "log=%s; cmd=%s\n", shellQuote(jobs[0].LogFile), shellQuote(jobs[0].Command))
	}
	fmt.Fprintf(&b, `mkdir -p "$(dirname "$log")" 2>/dev/null
if [ "${CUDA_VISIBLE_DEVICES:-}" == "NoDevFiles" ]; then unset CUDA_VISIBLE_DEVICES; fi
time1=$(date +%%s)
{ printf '# %%s\n' "$cmd"; echo "# Started at $(LC_ALL=C date)"; echo "# %s: ${%s:-unknown}"; echo '#'; } >"$log" || exit 1
bash -c "( $cmd)" </dev/null >>"$log" 2>&1
ret=$?
time2=$(date +%%s)
echo "# Accounting: time=$((time2-time1)) threads=%d" >>"$log"
echo "# Ended (code $ret) at $(LC_ALL=C date), elapsed time $((time2-time1)) seconds" >>"$log"
exit $(( ret ? 1 : 0 ))
`, q.IDLabel, q.JobIDVar, threads)
	return b.String()
}
