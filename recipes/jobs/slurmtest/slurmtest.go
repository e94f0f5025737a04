// Package slurmtest starts a real one-node Slurm cluster for a test
// (munged, slurmctld and slurmd on localhost, configured and run by
// recipes/jobs/slurm/start-local-cluster.sh, stopped when the test ends),
// so tests can prove that jobs went through Slurm. A test calls
// StartLocalCluster; without root or Debian's slurm-wlm and munge the test
// is skipped with the command that installs them.
package slurmtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// StartLocalCluster starts the cluster, points SLURM_CONF at it for the rest
// of the test (sbatch, scontrol and the jobs use it) and returns its
// directory (slurm.conf, log/ with the daemons' and the job-completion logs).
func StartLocalCluster(t *testing.T) string {
	t.Helper()
	for _, b := range []string{"munged", "mungekey", "slurmctld", "slurmd", "sbatch", "scontrol", "squeue"} {
		if _, err := exec.LookPath(b); err != nil {
			t.Skipf("%s not found: apt-get install slurm-wlm munge (as root) to run jobs through a local Slurm cluster", b)
		}
	}
	if os.Geteuid() != 0 {
		t.Skip("the local Slurm cluster needs root (slurmd runs each job as its user)")
	}
	_, file, _, _ := runtime.Caller(0)
	scripts := filepath.Join(filepath.Dir(file), "..", "slurm")
	dir := filepath.Join(t.TempDir(), "cluster")
	start := exec.Command(filepath.Join(scripts, "start-local-cluster.sh"), dir)
	start.Env = append(os.Environ(), fmt.Sprintf("STRODE_SLURM_PORT=%d", freePortPair(t)))
	out, err := start.CombinedOutput()
	if err != nil {
		t.Fatalf("start-local-cluster.sh: %v\n%s", err, out)
	}
	t.Cleanup(func() {
		if out, err := exec.Command(filepath.Join(scripts, "stop-local-cluster.sh"), dir).CombinedOutput(); err != nil {
			t.Errorf("stop-local-cluster.sh: %v\n%s", err, out)
		}
	})
	t.Setenv("SLURM_CONF", filepath.Join(dir, "slurm.conf"))
	t.Logf("%s", out)
	return dir
}

// freePortPair finds a port p such that p and p+1 are free on localhost
// (slurmctld's and slurmd's).
func freePortPair(t *testing.T) int {
	for try := 0; try < 50; try++ {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
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
