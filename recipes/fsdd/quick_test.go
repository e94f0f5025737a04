package fsdd

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/internal/testbin"
)

// TestQuickRecipe runs `run.sh --quick` on ../shared/data/fsdd with this tree's
// build of the binary (internal/testbin): every stage, both models, and the checks the
// recipe makes itself (stage 8: a loglikes file decodes to the same 1-best
// as the pipe). It proves the pipeline in CI (with -short at 2 epochs, under
// a minute on two idle cores); the WER bounds only say the models learned something (a guess is
// 90% WER on ten digits), the measured figures are in RESULTS.md.
func TestQuickRecipe(t *testing.T) {
	fsdd, err := filepath.Abs(shareddata.Dir(t, "data/fsdd"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	tmp := t.TempDir()
	bin := testbin.Strode(t)
	exp := filepath.Join(tmp, "exp")
	args := []string{"run.sh", "--quick", "--fsdd-dir", fsdd, "--exp-dir", exp, "--strode", bin}
	if testing.Short() {
		// CI's configuration, to keep `go test -short ./...` within its five
		// minutes: 2 epochs instead of --quick's 8, two thirds of the 4-epoch
		// run's CPU (measured: sru 17 %, strode 17 %, adapted 15 % / 21 %,
		// against 14 % / 15 %, adapted 17 % / 17 % at 4 epochs; the bound is 50 %).
		args = append(args, "--epochs", "2")
	}
	out, err := exec.Command("bash", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh --quick: %v\n%s", err, out)
	}
	log := string(out)
	if n := strings.Count(log, "identical 1-best"); n != 2 {
		t.Errorf("stage 8 reported identical 1-best for %d models, want 2:\n%s", n, log)
	}
	b, err := os.ReadFile(filepath.Join(exp, "results.json"))
	if err != nil {
		t.Fatal(err)
	}
	type wer struct {
		WER  *float64 `json:"wer"`
		Line string   `json:"wer_line"`
	}
	var res map[string]struct {
		wer
		Adapted *wer `json:"adapted"`
	}
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("results.json: %v\n%s", err, b)
	}
	for _, m := range []string{"sru", "strode"} {
		r, ok := res[m]
		switch {
		case !ok || r.WER == nil:
			t.Errorf("results.json has no WER for %s:\n%s", m, b)
		case *r.WER < 0 || *r.WER > 50:
			t.Errorf("%s: %s: the model did not learn (a guess is 90%%)", m, r.Line)
		case r.Adapted == nil || r.Adapted.WER == nil || *r.Adapted.WER > 50:
			t.Errorf("%s: no sensible adapted WER in results.json:\n%s", m, b)
		}
		t.Logf("%s: %s", m, r.Line)
	}
}
