package kaldi

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strode-asr/strode/recipes/jobs/slurmtest"
)

// TestSlurm runs the recipe's training and decoding through a real one-node
// Slurm cluster (Debian's slurm-wlm and munge on localhost, started by
// recipes/jobs/slurm/start-local-cluster.sh and stopped at the end) with
// --cmd slurm.pl, and the same small recipe with run.pl: every job's log must
// carry a Slurm job id that Slurm's own scontrol knows, and the results must
// be the local run's exactly (training and decoding are deterministic given
// the seed, so the tolerance is zero). Two recipe runs: only without -short
// (CI's `go test -short` skips it), where the packages are installed (.ci/run
// installs them, as root); elsewhere it skips naming the command.
func TestSlurm(t *testing.T) {
	if testing.Short() {
		t.Skip("two recipe runs through a Slurm cluster it starts (minutes); run without -short")
	}
	slurmtest.StartLocalCluster(t) // SLURM_CONF: the recipe's jobs and scontrol below use this cluster

	// One tiny model and one LM weight keep the two runs to half a minute or so each: the point
	// is where the jobs ran and that the numbers do not change.
	args := append([]string{"--quick", "--nj", "2", "--models", "sru", "--epochs", "2", "--hidden", "32", "--layers", "1",
		"--min-lmwt", "10", "--max-lmwt", "10", "--word-ins-penalty", "0.0"}, kaldiMiniArgs...)
	local := copyExperiment(t)
	if out, err := recipe(t, local, args...).CombinedOutput(); err != nil {
		t.Fatalf("run.pl: %v\n%s", err, out)
	}
	slurm := copyExperiment(t)
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
