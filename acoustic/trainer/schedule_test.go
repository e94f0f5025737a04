package trainer

import (
	"math"
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
