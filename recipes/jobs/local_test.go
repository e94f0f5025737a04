package jobs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fixedClock returns start for every call before the job runs and start+3 s
// after, so a log's dates and elapsed time are known. Safe for one job at a
// time per clock (MaxJobs 1).
func fixedClock(start time.Time) func() time.Time {
	var mu sync.Mutex
	n := 0
	return func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		n++
		if n%2 == 1 {
			return start
		}
		return start.Add(3 * time.Second)
	}
}

func runPL(t *testing.T, l *Local, args ...string) (int, string) {
	t.Helper()
	var stderr bytes.Buffer
	l.Stderr = &stderr
	code := Execute(context.Background(), l, "run.pl", args, &stderr)
	return code, stderr.String()
}

// The log layout is run.pl's, line for line. These are the print statements
// of Kaldi's egs/wsj/s5/utils/parallel/run.pl that write the log:
//
//	print F "# " . $cmd . "\n";
//	print F "# Started at " . `date`;
//	print F "#\n";
//	... ( $cmd) 2>>$logfile >> $logfile
//	print F "# Accounting: time=" . ($endtime - $starttime) . " threads=1\n";
//	print F "# Ended ($return_str) at " . $enddate . ", elapsed time " . ($endtime-$starttime) . " seconds\n";
//
// with $cmd the quoted words each followed by a space, `date` in the C
// locale, and $return_str "code N" (or "code N; signal S").
func TestRunPLLogLayout(t *testing.T) {
	dir := t.TempDir()
	start := time.Date(2024, 3, 7, 9, 5, 1, 0, time.UTC)
	l := &Local{MaxJobs: 1, Now: fixedClock(start)}
	code, stderr := runPL(t, l, "JOB=1:2", filepath.Join(dir, "log/hi.JOB.log"), "echo", "hi JOB", "&&", "echo", "err", ">&2")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	for _, id := range []string{"1", "2"} {
		b, err := os.ReadFile(filepath.Join(dir, "log/hi."+id+".log"))
		if err != nil {
			t.Fatal(err)
		}
		cmd := `echo "hi ` + id + `" && echo err >&2 `
		want := "# " + cmd + "\n" +
			"# Started at " + "Thu Mar  7 09:05:01 UTC 2024" + "\n" +
			"#\n" +
			"hi " + id + "\nerr\n" +
			"# Accounting: time=" + "3" + " threads=1\n" +
			"# Ended (" + "code 0" + ") at " + "Thu Mar  7 09:05:04 UTC 2024" + ", elapsed time " + "3" + " seconds\n"
		if string(b) != want {
			t.Errorf("log %s:\n%s\nwant:\n%s", id, b, want)
		}
	}
}

// The dates are those of `date` in the C locale on this machine.
func TestRunPLDateMatchesDate(t *testing.T) {
	cmd := exec.Command("date")
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	out, err := cmd.Output()
	if err != nil {
		t.Skip("no date command")
	}
	d := strings.TrimSpace(string(out))
	ours := time.Now().Format(DateLayout)
	shape := regexp.MustCompile(`^[A-Z][a-z]{2} [A-Z][a-z]{2} [ 0-9]\d \d\d:\d\d:\d\d \S+ \d{4}$`)
	if !shape.MatchString(d) || !shape.MatchString(ours) {
		t.Errorf("date %q and ours %q differ in shape", d, ours)
	}
	if d[:10] != ours[:10] && time.Now().Hour() != 0 { // same day, same layout (unless midnight passed)
		t.Errorf("date %q, ours %q", d, ours)
	}
}

func TestRunPLFailures(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "f.JOB.log")
	// Job 2 exits 3; job 3 is killed by a signal inside its subshell (bash reports 137).
	code, stderr := runPL(t, &Local{}, "JOB=1:3", log, "if", "[", "JOB", "=", "2", "];", "then", "exit", "3;", "fi;",
		"if", "[", "JOB", "=", "3", "];", "then", "kill", "-9", "$BASHPID;", "fi")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if want := "run.pl: 2 / 3 failed, log is in " + filepath.Join(dir, "f.*.log") + "\n"; stderr != want {
		t.Errorf("stderr %q, want %q", stderr, want)
	}
	for id, want := range map[int]EndStatus{1: {true, 0, 0}, 2: {true, 3, 0}, 3: {true, 137, 0}} {
		st, err := ReadEndStatus(filepath.Join(dir, fmt.Sprintf("f.%d.log", id)))
		if err != nil || st != want {
			t.Errorf("job %d: %+v %v, want %+v", id, st, err, want)
		}
	}
	// A single failing job names its log.
	code, stderr = runPL(t, &Local{}, filepath.Join(dir, "one.log"), "false")
	if code != 1 || stderr != "run.pl: job failed, log is in "+filepath.Join(dir, "one.log")+"\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestExitStatusSignal(t *testing.T) {
	cmd := exec.Command("sleep", "10")
	if err := cmd.Start(); err != nil {
		t.Skip(err)
	}
	cmd.Process.Kill()
	err := cmd.Wait()
	if s, ok := exitStatus(cmd.ProcessState, err); ok || s != "code 0; signal 9" {
		t.Errorf("%q %v", s, ok)
	}
	if st, _ := scanEndStatus(strings.NewReader("x\n# Ended (code 0; signal 9) at X, elapsed time 0 seconds\n")); st != (EndStatus{true, 0, 9}) || st.OK() {
		t.Errorf("%+v", st)
	}
}

// At most --max-jobs-run (or -tc; the smaller when both) jobs run at once,
// and they do run in parallel.
func TestRunPLMaxJobs(t *testing.T) {
	for _, opts := range [][]string{{"--max-jobs-run", "2"}, {"-tc", "3", "--max-jobs-run", "2"}, {"--max-jobs-run=2"}} {
		dir := t.TempDir()
		os.Mkdir(filepath.Join(dir, "running"), 0o777)
		args := append(append([]string{}, opts...), "JOB=1:4", filepath.Join(dir, "log/j.JOB.log"),
			"mkdir", dir+"/running/JOB", "&&", "ls", dir+"/running", "|", "wc", "-l", ">", dir+"/count.JOB", "&&", "sleep", "0.2", "&&", "rmdir", dir+"/running/JOB")
		code, stderr := runPL(t, &Local{}, args...)
		if code != 0 {
			t.Fatalf("%v: exit %d %s", opts, code, stderr)
		}
		most := 0
		for id := 1; id <= 4; id++ {
			b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("count.%d", id)))
			n, _ := strconv.Atoi(strings.TrimSpace(string(b)))
			most = max(most, n)
		}
		if most != 2 {
			t.Errorf("%v: at most %d jobs seen running at once, want 2", opts, most)
		}
	}
	if code, stderr := runPL(t, &Local{}, "--max-jobs-run", "0", "x.log", "true"); code != 1 || !strings.Contains(stderr, "invalid option --max-jobs-run 0") {
		t.Errorf("exit %d %q", code, stderr)
	}
}

func TestDefaultMaxJobs(t *testing.T) {
	n := DefaultMaxJobs(1, false, nil, "run.pl")
	if n < 1 {
		t.Errorf("%d", n)
	}
	// Slightly more jobs than processors: all run at once (run.pl's 1.4 rule).
	if m := DefaultMaxJobs(n+1, false, nil, "run.pl"); n >= 3 && m != n+1 {
		t.Errorf("%d jobs on %d processors: %d at once", n+1, n, m)
	}
	if m := DefaultMaxJobs(3*n, false, nil, "run.pl"); m != n {
		t.Errorf("%d jobs on %d processors: %d at once", 3*n, n, m)
	}
}

// Options that only the queue scripts use are accepted and ignored.
func TestRunPLIgnoresQueueOptions(t *testing.T) {
	dir := t.TempDir()
	code, stderr := runPL(t, &Local{}, "--mem", "4G", "--num-threads", "2", "--gpu", "0", "--config", "conf/none.conf",
		"--time", "1:00:00", "-q", "all.q", "-l", "arch=*64", "-pe", "smp", "4", "-V", "-sync", "y",
		filepath.Join(dir, "a/b/c.log"), "echo", "ok")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d %q", code, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "a/b/c.log"))
	if !strings.Contains(string(b), "\nok\n# Accounting: time=") {
		t.Errorf("log:\n%s", b)
	}
}

// --pick failed re-runs only the jobs whose log says they failed.
func TestRunPLPick(t *testing.T) {
	dir := t.TempDir()
	flag := filepath.Join(dir, "flag")
	log := filepath.Join(dir, "p.JOB.log")
	// Job 2 fails until the flag file exists.
	args := []string{"JOB=1:3", log, "echo", "ran", ">>", dir + "/ran.JOB;", "[", "JOB", "!=", "2", "]", "||", "[", "-f", flag, "]"}
	if code, _ := runPL(t, &Local{}, args...); code != 1 {
		t.Fatalf("first run exit %d", code)
	}
	os.WriteFile(flag, nil, 0o666)
	if code, _ := runPL(t, &Local{}, append([]string{"--pick", "incomplete"}, args...)...); code != 1 {
		t.Errorf("--pick incomplete should leave job 2 failed, exit %d", code)
	}
	if code, stderr := runPL(t, &Local{}, append([]string{"--pick", "failed"}, args...)...); code != 0 {
		t.Errorf("--pick failed: exit %d %s", code, stderr)
	}
	for id, want := range map[int]string{1: "ran\n", 2: "ran\nran\n", 3: "ran\n"} {
		b, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("ran.%d", id)))
		if string(b) != want {
			t.Errorf("job %d ran %q times, want %q", id, b, want)
		}
	}
}

// Cancelling (SIGINT/SIGTERM in the command) kills running jobs and they count as failed.
// The job waits on a gate that is never opened, so only the kill ends it;
// the cancel comes once the job has said it is running, not after a delay.
func TestRunPLCancel(t *testing.T) {
	dir := t.TempDir()
	gate := newJobGate(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr bytes.Buffer
	done := make(chan int, 1)
	go func() {
		done <- Execute(ctx, &Local{Stderr: &stderr}, "run.pl", append([]string{filepath.Join(dir, "s.log")}, gate.command()...), &stderr)
	}()
	gate.waitStarted(t, done, stderr.String)
	cancel()
	var code int
	select {
	case code = <-done:
	case <-time.After(hangGuard):
		gate.release()
		t.Fatalf("run.pl still running %v after the cancel: the job was not killed", hangGuard)
	}
	if code != 1 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	st, _ := ReadEndStatus(filepath.Join(dir, "s.log"))
	if !st.Found || st.OK() || st.Signal != int(syscall.SIGTERM) {
		t.Errorf("status %+v, want the job killed by SIGTERM", st)
	}
}
