package jobs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// fakeQueue puts testdata/fakebin (fake sbatch, qsub, scancel) first on PATH
// and returns the file where they record their arguments.
func fakeQueue(t *testing.T, recordVar string) string {
	t.Helper()
	bin, err := filepath.Abs("testdata/fakebin")
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	rec := filepath.Join(t.TempDir(), "record")
	t.Setenv(recordVar, rec)
	return rec
}

// calls reads the recorded submit command lines.
func calls(t *testing.T, rec string) [][]string {
	b, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	var cur []string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if l == "--" {
			out = append(out, cur)
			cur = nil
			continue
		}
		cur = append(cur, l)
	}
	return out
}

func runGrid(t *testing.T, q *Queue, dir string, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	g := &Grid{Queue: q, Stderr: &stderr, Cwd: dir, LogWait: []time.Duration{10 * time.Millisecond}}
	code := Execute(context.Background(), g, q.Prog, args, &stderr)
	return code, stderr.String()
}

var slurmHeader = regexp.MustCompile(`^# (.*)\n# Started at (.*)\n# Slurm job id: (\d+)\n#\n`)

func TestSlurmArray(t *testing.T) {
	rec := fakeQueue(t, "FAKE_SBATCH_RECORD")
	dir := t.TempDir()
	code, stderr := runGrid(t, Slurm, dir, "--mem", "4G", "--num-threads", "2", "--time", "1:00:00", "--max-jobs-run", "2",
		"JOB=1:3", "exp/log/echo.JOB.log", "echo", "hi JOB", "|", "tr", "a-z", "A-Z")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	c := calls(t, rec)
	if len(c) != 1 {
		t.Fatalf("sbatch called %d times", len(c))
	}
	qlog := filepath.Join(dir, "exp/q/echo.log")
	script := filepath.Join(dir, "exp/q/echo.sh")
	want := []string{"--export=PATH", "--ntasks-per-node=1", "--mem-per-cpu", "4G", "--cpus-per-task", "2", "--ntasks-per-node=1",
		"--time", "1:00:00", "--open-mode=append", "-e", qlog, "-o", qlog, "--array=1-3%2", "--parsable", "--wait", script}
	if strings.Join(c[0], " ") != strings.Join(want, " ") {
		t.Errorf("sbatch %q\nwant   %q", c[0], want)
	}
	ids := map[string]bool{}
	for id := 1; id <= 3; id++ {
		b, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("exp/log/echo.%d.log", id)))
		if err != nil {
			t.Fatal(err)
		}
		m := slurmHeader.FindStringSubmatch(string(b))
		if m == nil || m[1] != fmt.Sprintf(`echo "hi %d" | tr a-z A-Z `, id) {
			t.Fatalf("log %d:\n%s", id, b)
		}
		ids[m[3]] = true
		rest := string(b[len(m[0]):])
		foot := regexp.MustCompile(fmt.Sprintf(`^HI %d\n# Accounting: time=\d+ threads=2\n# Ended \(code 0\) at .*, elapsed time \d+ seconds\n$`, id))
		if !foot.MatchString(rest) {
			t.Errorf("log %d body:\n%s", id, rest)
		}
	}
	if len(ids) != 3 {
		t.Errorf("Slurm job ids %v: want one per task", ids)
	}
}

func TestSlurmSingleJobAndOptions(t *testing.T) {
	rec := fakeQueue(t, "FAKE_SBATCH_RECORD")
	dir := t.TempDir()
	// --gpu 1 asks for a GPU; -p passes through; --max-jobs-run is ignored without an array.
	code, stderr := runGrid(t, Slurm, dir, "--gpu", "1", "-p", "long", "--max-jobs-run", "3", "exp/log/one.log", "true")
	if code != 0 || !strings.Contains(stderr, "Ignoring max_jobs_run since this is not an array task.") {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got := strings.Join(calls(t, rec)[0], " ")
	if !strings.Contains(got, "--gres=gpu:1 -p long --open-mode=append") || strings.Contains(got, "--array") {
		t.Errorf("sbatch %s", got)
	}
	// An option the configuration does not describe is an error, as in slurm.pl.
	code, stderr = runGrid(t, Slurm, dir, "--colour", "blue", "exp/log/one.log", "true")
	if code != 1 || !strings.Contains(stderr, "slurm.pl: Command line option colour not described in default config file (or value 'blue' not allowed)") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	// A configuration file in Kaldi's syntax, given with --config or found at conf/slurm.conf.
	os.MkdirAll(filepath.Join(dir, "conf"), 0o777)
	conf := "command sbatch --export=ALL\noption mem=* --mem=$0  # per job\noption colour=* --comment=$0\ndefault gpu=0\noption gpu=0 -p cpu\noption gpu=* -p gpu --gres=gpu:$0\n"
	os.WriteFile(filepath.Join(dir, "conf/slurm.conf"), []byte(conf), 0o666)
	os.Remove(rec)
	// (the config file path is relative to the working directory, as in Kaldi)
	code, stderr = runGrid(t, Slurm, dir, "--mem", "2G", "--colour", "blue", "JOB=1:2", "exp/log/c.JOB.log", "true")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	got = strings.Join(calls(t, rec)[0], " ")
	if !strings.HasPrefix(got, "--export=ALL --comment=blue -p cpu --mem=2G --open-mode=append") {
		t.Errorf("sbatch %s", got)
	}
	code, stderr = runGrid(t, Slurm, dir, "--config", "conf/none.conf", "exp/log/one.log", "true")
	if code != 1 || !strings.Contains(stderr, "slurm.pl: Could not open config file conf/none.conf") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestSlurmFailures(t *testing.T) {
	fakeQueue(t, "FAKE_SBATCH_RECORD")
	dir := t.TempDir()
	// Task 2 fails; task 3 never runs (the queue killed it).
	t.Setenv("FAKE_SBATCH_SKIP", "3")
	code, stderr := runGrid(t, Slurm, dir, "JOB=1:3", "log/f.JOB.log", "[", "JOB", "!=", "2", "]")
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	for _, want := range []string{
		"slurm.pl: Log-file " + filepath.Join(dir, "log/f.3.log") + " does not exist",
		"slurm.pl: 2 / 3 failed, log is in log/f.*.log",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	// A refused submission names the queue log and the command.
	t.Setenv("FAKE_SBATCH_SKIP", "")
	t.Setenv("FAKE_SBATCH_REFUSE", "Invalid partition name specified")
	code, stderr = runGrid(t, Slurm, dir, "JOB=1:2", "log/g.JOB.log", "true")
	if code != 1 || !strings.Contains(stderr, "slurm.pl: Error submitting jobs to queue") ||
		!strings.Contains(stderr, "queue log file is "+filepath.Join(dir, "q/g.log")) || !strings.Contains(stderr, "Invalid partition name specified") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestSlurmMissingSbatch(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	code, stderr := runGrid(t, Slurm, t.TempDir(), "x.log", "true")
	if code != 1 || !strings.Contains(stderr, "slurm.pl: cannot run sbatch") || !strings.Contains(stderr, "apt-get install slurm-client") ||
		!strings.Contains(stderr, `use run.pl (cmd="strode run.pl")`) {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

// The cancel comes once the job is running (it says so through a gate), so
// sbatch has printed the job id that scancel needs, whatever the machine's
// load; the job waits on the gate, so it cannot end before the cancel.
func TestSlurmCancel(t *testing.T) {
	rec := fakeQueue(t, "FAKE_SBATCH_RECORD")
	dir := t.TempDir()
	gate := newJobGate(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr bytes.Buffer
	g := &Grid{Queue: Slurm, Stderr: &stderr, Cwd: dir, LogWait: []time.Duration{}}
	done := make(chan int, 1)
	go func() {
		done <- Execute(ctx, g, "slurm.pl", append([]string{"x.log"}, gate.command()...), &stderr)
	}()
	gate.waitStarted(t, done, stderr.String)
	cancel()
	code := <-done // the fake sbatch ends on SIGTERM at once
	if code != 1 || !strings.Contains(stderr.String(), "interrupted; cancelled job") {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	b, _ := os.ReadFile(rec)
	if !regexp.MustCompile(`(?m)^scancel \d+$`).Match(b) {
		t.Errorf("scancel not called:\n%s", b)
	}
	// The fake scancel only records: let the job end, and wait for its
	// log's last line, so that it writes nothing into dir once the test
	// removes it.
	gate.release()
	for deadline := time.Now().Add(hangGuard); ; time.Sleep(10 * time.Millisecond) {
		if st, _ := ReadEndStatus(filepath.Join(dir, "x.log")); st.Found {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the released job wrote no end line in %v", hangGuard)
		}
	}
}

func TestGridEngine(t *testing.T) {
	rec := fakeQueue(t, "FAKE_QSUB_RECORD")
	dir := t.TempDir()
	code, stderr := runGrid(t, GridEngine, dir, "--mem", "4G", "--num-threads", "2", "--max-jobs-run", "2", "-q", "all.q", "-sync", "y",
		"JOB=1:3", "exp/log/e.JOB.log", "echo", "JOB")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	qlog := filepath.Join(dir, "exp/q/e.log")
	want := []string{"-v", "PATH", "-cwd", "-S", "/bin/bash", "-j", "y", "-l", "arch=*64*", "-tc", "2", "-l", "mem_free=4G,ram_free=4G",
		"-pe", "smp", "2", "-q", "all.q", "-o", qlog, "-t", "1:3", "-sync", "y", filepath.Join(dir, "exp/q/e.sh")}
	if got := calls(t, rec); len(got) != 1 || strings.Join(got[0], " ") != strings.Join(want, " ") {
		t.Errorf("qsub %q\nwant %q", got, want)
	}
	for id := 1; id <= 3; id++ {
		b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("exp/log/e.%d.log", id)))
		re := regexp.MustCompile(fmt.Sprintf(`^# echo %d \n# Started at .*\n# SGE job id: \d+\n#\n%d\n# Accounting: time=\d+ threads=2\n# Ended \(code 0\) at .*\n$`, id, id))
		if !re.Match(b) {
			t.Errorf("log %d:\n%s", id, b)
		}
	}
	code, stderr = runGrid(t, GridEngine, dir, "JOB=1:2", "exp/log/f.JOB.log", "exit", "JOB")
	if code != 1 || !strings.Contains(stderr, "queue.pl: 2 / 2 failed, log is in exp/log/f.*.log") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	t.Setenv("PATH", t.TempDir())
	code, stderr = runGrid(t, GridEngine, dir, "x.log", "true")
	if code != 1 || !strings.Contains(stderr, "queue.pl: cannot run qsub") || !strings.Contains(stderr, "gridengine-client") {
		t.Errorf("exit %d: %s", code, stderr)
	}
}

func TestQueueConfigErrors(t *testing.T) {
	for _, tc := range []struct{ conf, want string }{
		{"option mem=* -l mem_free\n", "an option=* line needs $0"},
		{"command qsub\nbogus line\n", "unable to parse line 'bogus line' in config file (c:2)"},
		{"option mem=0\n", `does not contain the line "command .*"`},
	} {
		_, err := ParseQueueConfig(strings.NewReader(tc.conf), "c", "queue.pl")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.conf, err, tc.want)
		}
	}
}
