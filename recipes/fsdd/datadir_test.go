package fsdd

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/internal/testbin"
)

// TestSpeedCopiesMakeValidDataDir runs stage 0 with speed-perturbed and
// warped copies (the default ./run.sh has speeds 0.8–1.2; --quick, which
// TestQuickRecipe runs, has none) and checks the training data dir with
// validate-data-dir, as stage 1 does: the copies' speaker ids must sort
// with their utterances (Kaldi's sp0.9-SPK prefix), or the full recipe
// stops there.
func TestSpeedCopiesMakeValidDataDir(t *testing.T) {
	fsdd, err := filepath.Abs(shareddata.Dir(t, "data/fsdd"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	tmp := t.TempDir()
	// Digits 0 and 1 of every speaker (600 takes) keep the test short.
	small := filepath.Join(tmp, "fsdd")
	if err := os.MkdirAll(filepath.Join(small, "recordings"), 0o755); err != nil {
		t.Fatal(err)
	}
	waves, err := filepath.Glob(filepath.Join(fsdd, "recordings", "[01]_*.wav"))
	if err != nil || len(waves) == 0 {
		t.Fatalf("no recordings of digits 0 and 1 in %s: %v", fsdd, err)
	}
	for _, w := range waves {
		if err := os.Symlink(w, filepath.Join(small, "recordings", filepath.Base(w))); err != nil {
			t.Fatal(err)
		}
	}
	bin := testbin.Strode(t)
	exp := filepath.Join(tmp, "exp")
	out, err := exec.Command("bash", "run.sh", "--fsdd-dir", small, "--exp-dir", exp, "--strode", bin,
		"--speeds", "0.9 1.0", "--warps", "0.9 1.0", "--stage", "0", "--stop-stage", "0").CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh stage 0: %v\n%s", err, out)
	}
	train := filepath.Join(exp, "data", "train")
	if out, err := exec.Command(bin, "validate-data-dir", "--no-feats", train).CombinedOutput(); err != nil {
		t.Fatalf("validate-data-dir %s: %v\n%s", train, err, out)
	}
	spk2utt, err := exec.Command("cut", "-d", " ", "-f1", filepath.Join(train, "spk2utt")).Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"sp0.9-", "w0.9-"} {
		if !strings.Contains(string(spk2utt), want) {
			t.Errorf("no %s… speaker in %s/spk2utt:\n%s", want, train, spk2utt)
		}
	}
}
