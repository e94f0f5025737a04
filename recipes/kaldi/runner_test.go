package kaldi

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestFakeQueue drives stages 1-2 (features in two jobs) through a stand-in
// for a cluster's queue.pl, which records its arguments and runs the job
// itself: the recipe must call it with Kaldi's interface (JOB=1:N, the log
// file, the command) and get the same logs and features as with run.pl
// (the shared quickRun's: --quick changes no option of stages 1-2).
func TestFakeQueue(t *testing.T) {
	queue, err := filepath.Abs("testdata/fake_queue.pl")
	must(t, err)
	args := append([]string{"--stop-stage", "2", "--nj", "2"}, kaldiMiniArgs...)
	local, _ := quickRun(t)
	queued := copyExperiment(t)
	calls := filepath.Join(t.TempDir(), "calls")
	c := recipe(t, queued, append(args, "--cmd", queue+" -l mem_free=2G")...)
	c.Env = append(os.Environ(), "FAKE_QUEUE_LOG="+calls)
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("fake queue.pl: %v\n%s", err, out)
	}
	b, err := os.ReadFile(calls)
	must(t, err)
	for _, want := range []string{
		"-l mem_free=2G JOB=1:2 exp/make_fbank/train/log/make_fbank.JOB.log ",
		"-l mem_free=2G JOB=1:2 exp/make_fbank/test/log/make_fbank.JOB.log ",
		"-l mem_free=2G exp/make_fbank/train/log/cmvn.log ",
	} {
		if !strings.Contains(string(b), want) {
			t.Errorf("queue.pl was not called with %q; its calls:\n%s", want, b)
		}
	}
	// The same logs (less times and the experiment's own path) and the same features.
	logsOf := func(dir string) map[string]string {
		m := map[string]string{}
		clock := regexp.MustCompile(`(?m)^# (Started|Ended|Accounting).*$`)
		files, _ := filepath.Glob(filepath.Join(dir, "exp/make_fbank/*/log/*.log"))
		for _, f := range files {
			b, err := os.ReadFile(f)
			must(t, err)
			rel, _ := filepath.Rel(dir, f)
			m[rel] = strings.ReplaceAll(clock.ReplaceAllString(string(b), "# CLOCK"), dir, "S5")
		}
		return m
	}
	a, q := logsOf(local), logsOf(queued)
	if len(a) < 6 || len(a) != len(q) {
		t.Fatalf("logs: run.pl %d, queue.pl %d", len(a), len(q))
	}
	for k, v := range a {
		if q[k] != v {
			t.Errorf("%s differs:\n--- run.pl\n%s\n--- queue.pl\n%s", k, v, q[k])
		}
	}
	for _, set := range []string{"train", "test"} {
		if fa, fq := featsText(t, local, set), featsText(t, queued, set); fa != fq || fa == "" {
			t.Errorf("%s: features differ between run.pl and queue.pl (%d and %d bytes)", set, len(fa), len(fq))
		}
	}
}

func featsText(t *testing.T, dir, set string) string {
	t.Helper()
	c := exec.Command(strodeBin(t), "copy-feats", "scp:data-fbank/"+set+"/feats.scp", "ark,t:-")
	c.Dir = dir
	out, err := c.Output()
	must(t, err)
	return string(out)
}

// TestKillAndRerun kills the whole recipe (kill -9 of its process group, as a
// lost node or a closed terminal) in the middle of training and again in the
// middle of decoding; each re-run finishes what was left, and the results are
// those of an uninterrupted run (the shared quickRun). Two more quick runs:
// not with -short.
func TestKillAndRerun(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the --quick recipe twice more (minutes); run without -short")
	}
	args := quickArgs()
	ref, _ := quickRun(t)
	want := readResults(t, ref)

	dir := copyExperiment(t)
	for _, killAt := range []string{"exp/strode/checkpoint.am", "exp/sru/decode_test/log"} {
		c := recipe(t, dir, args...)
		c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		must(t, c.Start())
		deadline := time.Now().Add(5 * time.Minute)
		for {
			if _, err := os.Stat(filepath.Join(dir, killAt)); err == nil {
				break
			}
			if time.Now().After(deadline) {
				syscall.Kill(-c.Process.Pid, syscall.SIGKILL)
				t.Fatalf("%s never appeared", killAt)
			}
			time.Sleep(100 * time.Millisecond)
		}
		must(t, syscall.Kill(-c.Process.Pid, syscall.SIGKILL))
		c.Wait()
		t.Logf("killed the recipe once %s existed", killAt)
	}
	out, err := recipe(t, dir, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("re-run: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "done before") {
		t.Errorf("the re-run redid everything:\n%s", out)
	}
	got := readResults(t, dir)
	sort.Slice(got, func(i, j int) bool { return got[i].Model < got[j].Model })
	sort.Slice(want, func(i, j int) bool { return want[i].Model < want[j].Model })
	if len(got) != len(want) {
		t.Fatalf("results %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("after kill -9 and re-run: %+v\nuninterrupted:           %+v", got[i], want[i])
		}
	}
}
