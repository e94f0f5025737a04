package trainer

import (
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// TestDelayLearnsLookahead: the label of frame t is the direction of frame
// t+2's feature. Without a delay the unidirectional SRU cannot know it;
// with --target-delay=2 it can.
func TestDelayLearnsLookahead(t *testing.T) {
	acc := map[int]float64{}
	for _, delay := range []int{0, 2} {
		o := tinyOptions(am.KindSRU)
		o.SRU.Hidden, o.NumPdfs, o.InputDim, o.TargetDelay = 8, 3, 6, delay
		m, err := am.New(o, 5)
		if err != nil {
			t.Fatal(err)
		}
		to := DefaultTrainOptions()
		to.MaxEpochs, to.Patience, to.BatchUtts, to.Quantum = 6, 100, 4, 10
		to.Adam.LearningRate = 0.02
		tr, err := NewTrainer(&am.File{Model: m, Pipeline: am.Pipeline{RawDim: 6, CMVN: am.CMVNNone}}, to)
		if err != nil {
			t.Fatal(err)
		}
		lookahead := func(us []*am.Utterance) []*am.Utterance {
			for _, u := range us { // frame t's label becomes frame t+2's
				for i := range u.Targets {
					u.Targets[i] = u.Targets[min(i+2, u.Rows-1)]
				}
			}
			return us
		}
		if err := tr.Train(lookahead(toyData(48, 1, o)), lookahead(toyData(12, 2, o))); err != nil {
			t.Fatal(err)
		}
		tr.Close()
		h := tr.File.History
		acc[delay] = h[len(h)-1].ValidAcc
	}
	t.Logf("held-out accuracy without delay %.2f, with delay 2 %.2f", acc[0], acc[2])
	if acc[2] < 0.8 || acc[0] > 0.6 {
		t.Errorf("held-out accuracy without delay %.2f, with delay 2 %.2f", acc[0], acc[2])
	}
}

// TestResumeBitwiseDelay: bitwise resume holds with a target delay.
func TestResumeBitwiseDelay(t *testing.T) {
	checkResumeBitwise(t, func(o *am.Options, _ *TrainOptions) { o.PhiZ, o.TargetDelay = am.PhiZFree, 2 })
}
