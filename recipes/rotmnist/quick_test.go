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
//   - for every STRODE run that is not the paper's (strode-pose, the
//     recipe's STRODE, and strode-phase-state when asked for), test gap r
//     above the fixed schedule's (they read the turns between frames from
//     the first epoch on, so even 3 epochs of a narrow model must show
//     timing) and test CS above the index baseline's (quick, seed 1, pose:
//     0.986 Hawkes, 0.982 exp, against 0.895 / 0.923; phase-state, whose
//     first time nothing pins, scores 0.899 on exp and fails it, which is
//     why pose is the recipe's STRODE).
const (
	quickMSEFactor = 1.05
	quickMinCS     = 0.85
)

// shortModels are the models TestQuickRecipe trains with -short: node, the
// paper's strode and the recipe's strode-pose. odernn and
// strode-rnn add the SRU over the same ODE outputs (acoustic/seqvideo's
// tests check their gradients) and 4 of the 10 runs, which the 5 minutes
// of `go test -short ./...` cannot spare.
var shortModels = []string{"node", "strode", "strode-pose"}

// recipeModels are run.sh's default --models (TestRecipeModelsMatchRunSh
// keeps the two lists together): the paper's four and the recipe's STRODE.
var recipeModels = []string{"node", "odernn", "strode", "strode-rnn", "strode-pose"}

// timingVariant says whether a row of the table is a STRODE that is not the
// paper's (strode-phase-state, strode-pose): the runs the bar holds to
// timing (gap r) and to the first time (CS).
func timingVariant(model string) bool {
	return strings.HasPrefix(model, "strode-") && model != "strode-rnn"
}

// TestQuickRecipe runs `run.sh --quick` on ../shared/data/mnist with this tree's
// build of the binary (internal/testbin): both subsets, every model of the table
// (shortModels with -short), the table. It proves the pipeline in CI (-short runs
// it, as the FSDD recipe's).
func TestQuickRecipe(t *testing.T) {
	models := recipeModels
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
			case timingVariant(model) && !(sc.GapR > sc.ScheduleGapR):
				t.Errorf("%s %s: test gap r %.3f not above the fixed schedule's %.3f", subset, model, sc.GapR, sc.ScheduleGapR)
			case timingVariant(model) && !(sc.CS > sc.IndexCS):
				t.Errorf("%s %s: test CS %.3f not above the index baseline's %.3f", subset, model, sc.CS, sc.IndexCS)
			}
		}
	}
}

// TestRecipeModelsMatchRunSh: the models the long quick test trains are
// run.sh's default --models, and the recipe's STRODE (StrodeVariant) is one
// of them.
func TestRecipeModelsMatchRunSh(t *testing.T) {
	b, err := os.ReadFile("run.sh")
	if err != nil {
		t.Fatal(err)
	}
	want := `models="` + strings.Join(recipeModels, " ") + `"`
	if !strings.Contains(string(b), "\n"+want+"\n") {
		t.Errorf("run.sh's default models are not %s", want)
	}
	found := false
	for _, m := range recipeModels {
		found = found || m == "strode-"+string(StrodeVariant)
	}
	if !found {
		t.Errorf("the recipe's STRODE, strode-%s, is not among run.sh's default models %v", StrodeVariant, recipeModels)
	}
}
