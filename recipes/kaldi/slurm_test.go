package kaldi

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSlurm runs the recipe's training and decoding through a real one-node
// Slurm cluster (Debian's slurm-wlm and munge on localhost, started by
// recipes/jobs/slurm/start-local-cluster.sh and stopped at the end) with
// --cmd slurm.pl, and the same small recipe with run.pl: every job's log must
// carry a Slurm job id that Slurm's own scontrol knows, and the results must
// be the local run's exactly (training and decoding are deterministic given
// the seed, so the tolerance is zero). CI runs it when it could install the
// packages (.ci/run does, as root); elsewhere it skips naming the command.
func TestSlurm(t *testing.T) {
	for _, b := range []string{"munged", "mungekey", "slurmctld", "slurmd", "sbatch", "scontrol"} {
		if _, err := exec.LookPath(b); err != nil {
			t.Skipf("%s not found: apt-get install slurm-wlm munge (as root) to run the recipe through a local Slurm cluster", b)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("the local Slurm cluster needs root (slurmd runs jobs as their user)")
	}
	scripts, err := filepath.Abs("../jobs/slurm")
	must(t, err)
	cluster := filepath.Join(t.TempDir(), "cluster")
	start := exec.Command(filepath.Join(scripts, "start-local-cluster.sh"), cluster)
	start.Env = append(os.Environ(), fmt.Sprintf("STRODE_SLURM_PORT=%d", freePortPair(t)))
	if out, err := start.CombinedOutput(); err != nil {
		t.Fatalf("start-local-cluster.sh: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command(filepath.Join(scripts, "stop-local-cluster.sh"), cluster).CombinedOutput(); err != nil {
			t.Errorf("stop-local-cluster.sh: %v\n%s", err, out)
		}
	})

	// One small model keeps the two runs to a minute or so each.
	args := append([]string{"--quick", "--nj", "2", "--models", "sru", "--epochs", "3"}, kaldiMiniArgs...)
	local := copyExperiment(t)
	if out, err := recipe(t, local, args...).CombinedOutput(); err != nil {
		t.Fatalf("run.pl: %v\n%s", err, out)
	}
	slurm := copyExperiment(t)
	t.Setenv("SLURM_CONF", filepath.Join(cluster, "slurm.conf")) // the recipe's jobs and scontrol below use this cluster
	out, err := recipe(t, slurm, append(args, "--cmd", "slurm.pl --mem 1G --time 0:20:00")...).CombinedOutput()
	if err != nil {
		t.Fatalf("slurm.pl: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "through '"+strodeBin(t)+" slurm.pl --mem 1G --time 0:20:00'") {
		t.Errorf("the recipe did not pick strode's slurm.pl:\n%s", out)
	}

	// Every job of features, training and decoding went through Slurm.
	idRe := regexp.MustCompile(`(?m)^# Slurm job id: (\d+)`)
	for _, pattern := range []string{"exp/make_fbank/*/log/make_fbank.*.log", "exp/make_fbank/*/log/cmvn.log",
		"exp/sru/log/train.log", "exp/sru/decode_test/log/decode.*.log"} {
		logs, _ := filepath.Glob(filepath.Join(slurm, pattern))
		if len(logs) == 0 {
			t.Errorf("no %s", pattern)
		}
		for _, l := range logs {
			b, err := os.ReadFile(l)
			must(t, err)
			m := idRe.FindSubmatch(b)
			if m == nil {
				t.Errorf("%s has no Slurm job id:\n%s", l, b)
				continue
			}
			show, err := exec.Command("scontrol", "show", "job", string(m[1])).CombinedOutput()
			if err != nil || !strings.Contains(string(show), "JobState=COMPLETED") {
				t.Errorf("%s: Slurm job %s: %v\n%s", l, m[1], err, show)
			}
		}
	}
	want, got := readResults(t, local), readResults(t, slurm)
	if len(got) != 1 || len(want) != 1 || got[0] != want[0] {
		t.Errorf("through Slurm %+v\nlocally      %+v", got, want)
	}
	t.Logf("sru through Slurm: %%WER %.2f [ %d / %d ], held-out frame acc %.2f%% (locally the same)", got[0].WER, got[0].Errors, got[0].Words, got[0].HeldOutAcc)
}

// freePortPair finds a port p such that p and p+1 are free on localhost (the
// local cluster's slurmctld and slurmd).
func freePortPair(t *testing.T) int {
	for try := 0; try < 50; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		must(t, err)
		p := l.Addr().(*net.TCPAddr).Port
		l.Close()
		if l2, err := net.Listen("tcp", fmt.Sprintf("127.0.0.1:%d", p+1)); err == nil {
			l2.Close()
			return p
		}
	}
	t.Fatal("no free port pair")
	return 0
}
