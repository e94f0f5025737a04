package rotmnist

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/internal/testbin"
)

// The --quick bar. Three epochs of 200 videos (12 minibatches) are too few
// for any model to draw digits, so every output is still close to a black
// frame: the bar catches a broken pipeline, not a weak model. Every run
// must have
//   - test MSE at most quickMSEFactor × the blank-frame MSE (nothing
//     diverged: a broken decoder or target layout is far above it),
//   - a lower training MSE in its last epoch than in its first (the
//     gradients point downhill),
//   - test CS at least quickMinCS (index times score 0.89–0.93 on these
//     sets; a time scale collapsed to a constant or reversed scores less),
//     and exactly the index baseline's CS for node and odernn;
//   - for strode-phase-state, the recipe's STRODE, and strode-pose, test
//     gap r above the fixed schedule's (they read the turns between frames
//     from the first epoch on, so even 3 epochs of a narrow model must show
//     timing);
//   - for strode-pose, test CS above the index baseline's: its first time
//     is the first frame's pose, read off the pixels from the first epoch
//     on (quick, seed 1: 0.986 Hawkes, 0.982 exp, against 0.895 / 0.923),
//     where phase-state's, pinned by nothing, scores below it on exp.
const (
	quickMSEFactor = 1.05
	quickMinCS     = 0.85
)

// shortModels are the models TestQuickRecipe trains with -short: node, the
// paper's strode and the recipe's strode-phase-state. odernn and
// strode-rnn add the SRU over the same ODE outputs (acoustic/seqvideo's
// tests check their gradients) and 4 of the 10 runs, which the 5 minutes
// of `go test -short ./...` cannot spare.
var shortModels = []string{"node", "strode", "strode-phase-state"}

// TestQuickRecipe runs `run.sh --quick` on ../shared/data/mnist with this tree's
// build of the binary (internal/testbin): both subsets, every model of the table
// (shortModels with -short), the table. It proves the pipeline in CI (-short runs
// it, as the FSDD recipe's).
func TestQuickRecipe(t *testing.T) {
	models := tableRows
	if testing.Short() {
		models = shortModels
	}
	mnist, err := filepath.Abs(shareddata.Full(t, "data/mnist"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("needs bash")
	}
	tmp := t.TempDir()
	bin := testbin.Strode(t)
	exp := filepath.Join(tmp, "exp")
	start := time.Now()
	out, err := exec.Command("bash", "run.sh", "--quick", "--nj", "2", "--mnist-dir", mnist, "--exp-dir", exp, "--strode", bin,
		"--models", strings.Join(models, " ")).CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh --quick: %v\n%s", err, out)
	}
	t.Logf("run.sh --quick: %.0f s\n%s", time.Since(start).Seconds(), out)
	table, err := os.ReadFile(filepath.Join(exp, "RESULTS.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, subset := range []string{"hawkes", "exp"} {
		for _, model := range models {
			if !strings.Contains(string(table), "| "+subset+" | "+model+" | 1 |") {
				t.Errorf("RESULTS.md has no row for %s %s:\n%s", subset, model, table)
			}
			b, err := os.ReadFile(filepath.Join(exp, subset, model, "seed1", "results.json"))
			if err != nil {
				t.Error(err)
				continue
			}
			var r Result
			if err := json.Unmarshal(b, &r); err != nil {
				t.Errorf("%s %s: %v", subset, model, err)
				continue
			}
			sc, h := r.Test, r.History
			switch {
			case !(sc.MSE <= quickMSEFactor*sc.BlankMSE):
				t.Errorf("%s %s: test MSE %.5f above %.2f × the blank frames' %.5f", subset, model, sc.MSE, quickMSEFactor, sc.BlankMSE)
			case len(h) < 2 || !(h[len(h)-1].TrainMSE < h[0].TrainMSE):
				t.Errorf("%s %s: training MSE did not fall: %+v", subset, model, h)
			case !(sc.CS >= quickMinCS):
				t.Errorf("%s %s: test CS %.3f below %.2f", subset, model, sc.CS, quickMinCS)
			case (model == "node" || model == "odernn") && sc.CS != sc.IndexCS:
				t.Errorf("%s %s: CS %v differs from the index baseline's %v", subset, model, sc.CS, sc.IndexCS)
			case (model == "strode-phase-state" || model == "strode-pose") && !(sc.GapR > sc.ScheduleGapR):
				t.Errorf("%s %s: test gap r %.3f not above the fixed schedule's %.3f", subset, model, sc.GapR, sc.ScheduleGapR)
			case model == "strode-pose" && !(sc.CS > sc.IndexCS):
				t.Errorf("%s %s: test CS %.3f not above the index baseline's %.3f", subset, model, sc.CS, sc.IndexCS)
			}
		}
	}
}
