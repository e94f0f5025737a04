package trainer

import (
	"math"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// TestNewbob follows nnet1's train_scheduler.sh: a worse epoch is rejected
// (parameters restored), halving starts under start-halving-impr and
// training stops under end-halving-impr while halving.
func TestNewbob(t *testing.T) {
	o := tinyOptions(am.KindSRU)
	m, _ := am.New(o, 1)
	to := DefaultTrainOptions()
	to.Optimizer, to.Newbob, to.MinEpochs = "sgd", true, 1
	tr, err := NewTrainer(&am.File{Model: m}, to)
	if err != nil {
		t.Fatal(err)
	}
	tr.st.BestLoss = 2.0
	tr.best = tr.snapshot()
	lr0 := tr.st.LR
	steps := []struct {
		loss     float64
		accepted bool
		halving  bool
		lr       float64
		done     bool
	}{
		{1.5, true, false, lr0, false},      // 25% better
		{1.6, false, true, lr0 / 2, false},  // worse: rejected, halving starts
		{1.2, true, true, lr0 / 4, false},   // 20% better, still halving
		{1.1999, true, true, lr0 / 4, true}, // < 0.1% better while halving: stop (no further halving)
	}
	for i, s := range steps {
		m.Params.List[0].Data[0] += 1 // a change that a rejection must undo
		before := tr.best[0][0]
		e := am.Epoch{Epoch: i + 1, ValidCE: s.loss}
		tr.schedule(&e)
		if e.Accepted != s.accepted || tr.st.Halving != s.halving || math.Abs(tr.st.LR-s.lr) > 1e-12 || tr.st.Done != s.done {
			t.Fatalf("epoch %d: accepted %v halving %v lr %g done %v; want %+v", i+1, e.Accepted, tr.st.Halving, tr.st.LR, tr.st.Done, s)
		}
		if !s.accepted && m.Params.List[0].Data[0] != before {
			t.Fatalf("epoch %d rejected but parameters not restored", i+1)
		}
	}
}

// TestNewbobKeepsLearningRate forces a worse first epoch, as Adam's first
// steps gave sru on a small Kaldi experiment: without --keep-lr-iters the
// rejection starts the halving at once and training stops a few epochs
// later at a tiny rate; with --keep-lr-iters 2 the rate is kept, the next
// epochs improve at full rate, and the log says why at every decision.
func TestNewbobKeepsLearningRate(t *testing.T) {
	losses := []float64{4.58, 4.30, 3.90, 3.60, 3.59999}
	run := func(keep int) (lrs []float64, logs []string, stopped int) {
		o := tinyOptions(am.KindSRU)
		m, _ := am.New(o, 1)
		to := DefaultTrainOptions()
		to.Newbob, to.KeepLREpochs = true, keep
		tr, err := NewTrainer(&am.File{Model: m}, to)
		if err != nil {
			t.Fatal(err)
		}
		tr.st.BestLoss = 4.46
		tr.best = tr.snapshot()
		for i, l := range losses {
			e := am.Epoch{Epoch: i + 1, ValidCE: l}
			logs = append(logs, tr.schedule(&e))
			lrs = append(lrs, tr.st.LR)
			if tr.st.Done {
				return lrs, logs, i + 1
			}
		}
		return lrs, logs, 0
	}
	lr0 := DefaultTrainOptions().Adam.LearningRate
	lrs, logs, stopped := run(0)
	if lrs[0] != lr0/2 || !strings.Contains(logs[0], "halving starts") {
		t.Errorf("without --keep-lr-iters: after the worse first epoch lr %g (want %g), log %q", lrs[0], lr0/2, logs[0])
	}
	lrs, logs, stopped = run(2)
	if lrs[0] != lr0 || !strings.Contains(logs[0], "kept for 2 epochs (--keep-lr-iters)") {
		t.Errorf("--keep-lr-iters 2: after the worse first epoch lr %g (want %g), log %q", lrs[0], lr0, logs[0])
	}
	if lrs[1] != lr0 || lrs[2] != lr0 || logs[1] != "" {
		t.Errorf("--keep-lr-iters 2: improving epochs at lr %v, logs %q; want the initial rate and no decision", lrs[:3], logs[1:3])
	}
	if stopped != 0 {
		t.Errorf("--keep-lr-iters 2: stopped at epoch %d (%q) while still improving", stopped, logs[stopped-1])
	}
	// 3.6 → 3.59999 is under start-halving-impr: halving starts, with its reason.
	if !strings.Contains(logs[4], "halving starts: relative improvement") {
		t.Errorf("epoch 5's log %q does not say why halving starts", logs[4])
	}
}
