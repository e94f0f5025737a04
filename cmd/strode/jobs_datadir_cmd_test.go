package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

func runStrode(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := app.Run(append([]string{"strode"}, args...), kaldicmd.Streams{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return code, out.String(), errb.String()
}

// run.pl takes Kaldi's raw arguments (single-dash options, space-separated
// values) through the binary's dispatcher.
func TestRunPLCommand(t *testing.T) {
	dir := t.TempDir()
	log := filepath.Join(dir, "log/x.JOB.log")
	code, _, stderr := runStrode(t, "", "run.pl", "-tc", "2", "--mem", "4G", "JOB=1:3", log, "echo", "job JOB", "|", "tr", "a-z", "A-Z")
	if code != 0 || stderr != "" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "log/x.3.log"))
	if !strings.HasPrefix(string(b), "# echo \"job 3\" | tr a-z A-Z \n# Started at ") || !strings.Contains(string(b), "\n#\nJOB 3\n# Accounting: time=") {
		t.Errorf("log:\n%s", b)
	}
	code, _, stderr = runStrode(t, "", "run.pl", "JOB=1:2", log, "exit", "JOB")
	if code != 1 || stderr != "run.pl: 2 / 2 failed, log is in "+filepath.Join(dir, "log/x.*.log")+"\n" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	code, _, stderr = runStrode(t, "", "slurm.pl", "JOB=3:1", log, "true")
	if code != 1 || !strings.Contains(stderr, "slurm.pl: invalid job range JOB=3:1") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

func TestDataDirCommands(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "train")
	os.MkdirAll(dir, 0o777)
	for _, f := range []string{"utt2spk", "spk2utt", "text", "wav.scp", "feats.scp", "cmvn.scp"} {
		b, err := os.ReadFile(filepath.Join("../../recipes/datadir/testdata/train", f))
		if err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, f), b, 0o666)
	}
	if code, out, stderr := runStrode(t, "", "validate-data-dir", dir); code != 0 || !strings.Contains(out, "Successfully validated") {
		t.Errorf("validate: exit %d %s %s", code, out, stderr)
	}
	if code, _, stderr := runStrode(t, "", "split-data", "--per-utt", dir, "3"); code != 0 {
		t.Errorf("split: exit %d %s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "split3utt/3/feats.scp")); err != nil {
		t.Error(err)
	}
	if code, _, stderr := runStrode(t, "", "split-data", dir, "5"); code == 0 || !strings.Contains(stderr, dir) {
		t.Errorf("split into 5: exit %d %s", code, stderr)
	}
	if code, out, _ := runStrode(t, "u1 s\nu2 s\n", "utt2spk-to-spk2utt"); code != 0 || out != "s u1 u2\n" {
		t.Errorf("utt2spk-to-spk2utt: exit %d %q", code, out)
	}
	os.WriteFile(filepath.Join(dir, "text"), []byte("a-1 X\n"), 0o666)
	if code, _, stderr := runStrode(t, "", "validate-data-dir", dir); code != 1 || !strings.Contains(stderr, "text ends after 1") {
		t.Errorf("validate a broken dir: exit %d %s", code, stderr)
	}
	if code, out, stderr := runStrode(t, "", "fix-data-dir", dir); code != 0 || !strings.Contains(out, "kept 1 utterances out of 10 (dropped 9)") {
		t.Errorf("fix: exit %d %s %s", code, out, stderr)
	}
	tr, cv := filepath.Join(filepath.Dir(dir), "tr"), filepath.Join(filepath.Dir(dir), "cv")
	if code, _, stderr := runStrode(t, "", "subset-data-dir-tr-cv", "--cv-spk-percent", "50", dir, tr, cv); code == 0 || !strings.Contains(stderr, "would be empty") {
		t.Errorf("subset of one speaker: exit %d %s", code, stderr)
	}
}
