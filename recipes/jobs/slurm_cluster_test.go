package jobs

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/strode-asr/strode/recipes/jobs/slurmtest"
)

// TestSlurmLocalCluster starts a real one-node Slurm (slurm/start-local-cluster.sh),
// runs slurm.pl's jobs through it and checks with scontrol, squeue and the
// job-completion log that they ran under Slurm. Opt-in: STRODE_SLURM_TEST=1.
func TestSlurmLocalCluster(t *testing.T) {
	if os.Getenv("STRODE_SLURM_TEST") != "1" {
		t.Skip("set STRODE_SLURM_TEST=1 to start a one-node Slurm cluster here (needs root and apt-get install slurm-wlm munge)")
	}
	dir := slurmtest.StartLocalCluster(t)

	work := t.TempDir()
	var stderr bytes.Buffer
	g := &Grid{Queue: Slurm, Stderr: &stderr, Cwd: work}
	began := time.Now()
	// Job 2 fails; at most 2 run at once.
	code := Execute(context.Background(), g, "slurm.pl", []string{"--mem", "100M", "--time", "0:10:00", "--max-jobs-run", "2",
		"JOB=1:3", "exp/log/s.JOB.log", "echo", "task JOB on", "$(hostname)", ";", "[", "JOB", "!=", "2", "]"}, &stderr)
	t.Logf("slurm.pl took %v", time.Since(began))
	if code != 1 || !strings.Contains(stderr.String(), "slurm.pl: 1 / 3 failed, log is in exp/log/s.*.log") {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	idRe := regexp.MustCompile(`(?m)^# Slurm job id: (\d+)$`)
	seen := map[string]bool{}
	for id := 1; id <= 3; id++ {
		b, err := os.ReadFile(filepath.Join(work, fmt.Sprintf("exp/log/s.%d.log", id)))
		if err != nil {
			t.Fatal(err)
		}
		m := idRe.FindSubmatch(b)
		if m == nil {
			t.Fatalf("log %d has no Slurm job id:\n%s", id, b)
		}
		jobID := string(m[1])
		seen[jobID] = true
		show, err := exec.Command("scontrol", "show", "job", jobID).CombinedOutput()
		if err != nil {
			t.Fatalf("scontrol show job %s: %v\n%s", jobID, err, show)
		}
		state, exit := "COMPLETED", "0:0"
		if id == 2 {
			state, exit = "FAILED", "1:0"
		}
		for _, want := range []string{"JobState=" + state, "ExitCode=" + exit, fmt.Sprintf("ArrayTaskId=%d ", id),
			"ArrayTaskThrottle=2", "TimeLimit=00:10:00", "MinMemoryCPU=100M", "WorkDir=" + work} {
			if !strings.Contains(string(show), want) {
				t.Errorf("job %d (Slurm job %s): scontrol lacks %q:\n%s", id, jobID, want, show)
			}
		}
		comp, _ := os.ReadFile(filepath.Join(dir, "log/jobcomp.txt"))
		if !regexp.MustCompile(`(?m)^JobId=` + jobID + ` .*JobState=` + state).Match(comp) {
			t.Errorf("job-completion log has no JobId=%s JobState=%s", jobID, state)
		}
		if !strings.Contains(string(b), fmt.Sprintf("task %d on ", id)) {
			t.Errorf("log %d:\n%s", id, b)
		}
	}
	if len(seen) != 3 {
		t.Errorf("Slurm job ids %v, want 3 different", seen)
	}
	if q, err := exec.Command("squeue", "-h").CombinedOutput(); err != nil || len(bytes.TrimSpace(q)) != 0 {
		t.Errorf("squeue after the run: %v\n%s", err, q)
	}
}
