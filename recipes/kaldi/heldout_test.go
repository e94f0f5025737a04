package kaldi

import (
	"math"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/acoustic/trainer"
)

// heldOutGap is how far apart, in points of held-out frame accuracy, sru
// and strode may end on the same triphone targets: the STRODE head adds
// boundary terms to the same SRU encoder, and must not cost (or buy) more
// than that on the frame classification they share.
const heldOutGap = 5.0

// TestSruStrodeHeldOutAccuracyTri1 trains sru and strode with the recipe
// (--quick, stages 2-4) on kaldi-mini's training data
// with a triphone system's alignments in the layout of the other tests: a
// tri1 made from kaldi-mini's exp/mono by recipes/steps/train_deltas.sh (100
// leaves, 400 Gaussians, 5 iterations) on MFCC data dirs of its own, and
// align_si.sh's exp/tri1_ali as --ali. The two models' held-out frame
// accuracies (of the epoch each model keeps) are within heldOutGap points.
// Three of the ten speakers are held out (--cv-spk-percent 30, 54
// utterances): with the default one (18 utterances) the accuracy of the
// epoch newbob keeps, chosen by held-out CE, swings by more than the gap
// from one epoch to the next (measured on 2 loaded cores: one speaker, sru
// 63.55 %, strode 69.56 %, 6.01 apart at nearly equal CE, 1.862 and 1.847;
// three speakers, sru 73.96 % after 6 epochs, strode 69.50 % after 8, 4.46
// apart). The margin is thin: this checks that the STRODE head does not
// lose the frame classification, not which model is better.
func TestSruStrodeHeldOutAccuracyTri1(t *testing.T) {
	if testing.Short() {
		t.Skip("trains a tri1 GMM and two networks on kaldi-mini (7-25 minutes on 2 heavily loaded cores): without -short")
	}
	dir := copyExperiment(t)
	steps, err := filepath.Abs("../steps")
	must(t, err)
	c := exec.Command("bash", "-c", `set -euo pipefail
S=$0 P=$1
mkdir -p data-tri/train mfcc
d=data-tri/train; cp data/train/text data/train/utt2spk data/train/spk2utt data/train/wav.scp $d/
$S compute-mfcc-feats --config=conf/mfcc.conf scp:$d/wav.scp ark,scp:$PWD/mfcc/raw_train.ark,$d/feats.scp 2>/dev/null
$S compute-cmvn-stats --spk2utt=ark:$d/spk2utt scp:$d/feats.scp ark,scp:$PWD/mfcc/cmvn_train.ark,$d/cmvn.scp 2>/dev/null
$P/train_deltas.sh --strode $S --num-iters 5 --max-iter-inc 3 --realign-iters 3 --boost-silence 1.25 100 400 $d data/lang exp/mono exp/tri1
$P/align_si.sh --strode $S --nj 2 $d data/lang exp/tri1 exp/tri1_ali`, strodeBin(t), steps)
	c.Dir = dir
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("tri1 on kaldi-mini: %v\n%s", err, out)
	}
	out, err := recipe(t, dir, "--quick", "--nj", "2", "--dev", "", "--test", "", "--ali", "exp/tri1_ali",
		"--graph", "exp/tri1/graph", "--cv-spk-percent", "30", "--stage", "2", "--stop-stage", "4").CombinedOutput()
	if err != nil {
		t.Fatalf("run.sh --ali exp/tri1_ali --stop-stage 4: %v\n%s", err, out)
	}
	acc := map[string]float64{}
	for _, m := range []string{"sru", "strode"} {
		sum, err := trainer.ReadSummary(filepath.Join(dir, "exp", m, "final.am"))
		must(t, err)
		e, ok := sum.FinalEpoch()
		if !ok {
			t.Fatalf("exp/%s/final.am: no epoch in its history", m)
		}
		acc[m] = 100 * e.ValidAcc
		t.Logf("%s: held-out frame accuracy %.2f %% after %d epochs", m, acc[m], len(sum.History))
	}
	if d := math.Abs(acc["sru"] - acc["strode"]); d > heldOutGap {
		t.Errorf("held-out frame accuracy sru %.2f %%, strode %.2f %%: %.2f points apart, more than %.0f", acc["sru"], acc["strode"], d, heldOutGap)
	}
}
