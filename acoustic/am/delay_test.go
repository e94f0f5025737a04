package am

import (
	"math/rand"
	"testing"
)

func TestDelayed(t *testing.T) {
	u := &Utterance{Key: "u", Rows: 3, Feats: []float32{1, 2, 3, 4, 5, 6}, Targets: []int32{7, 8, 9}}
	v, _ := delayed(u, 2)
	wantF := []float32{1, 2, 3, 4, 5, 6, 5, 6, 5, 6}
	wantT := []int32{7, 7, 7, 8, 9}
	if v.Rows != 5 || len(v.Feats) != len(wantF) || len(v.Targets) != len(wantT) {
		t.Fatalf("rows %d, %d feats, %d targets", v.Rows, len(v.Feats), len(v.Targets))
	}
	for i := range wantF {
		if v.Feats[i] != wantF[i] {
			t.Fatalf("feats %v, want %v", v.Feats, wantF)
		}
	}
	for i := range wantT {
		if v.Targets[i] != wantT[i] {
			t.Fatalf("targets %v, want %v", v.Targets, wantT)
		}
	}
	if u.Rows != 3 || len(u.Feats) != 6 || len(u.Targets) != 3 {
		t.Fatal("delayed modified its input")
	}
	if v0, _ := delayed(u, 0); v0 != u {
		t.Fatal("delay 0 copied the utterance")
	}
	if w, _ := delayed(&Utterance{Key: "x", Rows: 1, Feats: []float32{1, 2}}, 1); w.Targets != nil || w.Rows != 2 {
		t.Fatalf("no targets: got %v rows %d", w.Targets, w.Rows)
	}
}

// TestForwardDelay: with a target delay of N, forward returns one row per
// input frame, frame t's row being row t+N of the model run on the input
// extended by N copies of its last frame.
func TestForwardDelay(t *testing.T) {
	for _, kind := range []string{KindSRU, KindSTRODE} {
		o := tinyOptions(kind)
		o.PhiZ = PhiZFree
		plain, err := New(o, 3)
		if err != nil {
			t.Fatal(err)
		}
		o.TargetDelay = 3
		late, err := New(o, 3) // same parameters: the delay draws nothing
		if err != nil {
			t.Fatal(err)
		}
		u := tinyBatch(rand.New(rand.NewSource(1)), o, []int{11})[0]
		u.Targets = nil
		fp, fl := NewForwarder(plain), NewForwarder(late)
		ud, _ := delayed(u, 3)
		want, err := fp.Logits(ud)
		if err != nil {
			t.Fatal(err)
		}
		want = append([]float64(nil), want...)
		got, err := fl.Logits(u)
		if err != nil {
			t.Fatal(err)
		}
		p := o.NumPdfs
		if len(got) != u.Rows*p || len(want) != (u.Rows+3)*p {
			t.Fatalf("%s: %d and %d logits for %d frames", kind, len(got), len(want), u.Rows)
		}
		for i, v := range got {
			if v != want[3*p+i] {
				t.Fatalf("%s: logit %d: %v, want %v", kind, i, v, want[3*p+i])
			}
		}
		if kind == KindSTRODE {
			g, _ := fl.Run(u)
			if n := len(g.Rows(g.TTilde, 0)); n != u.Rows {
				t.Fatalf("t~ has %d rows for %d frames", n, u.Rows)
			}
		}
		fp.Close()
		fl.Close()
	}
}

// TestDelayLearnsLookahead: the label of frame t is the direction of frame
// t+2's feature. Without a delay the unidirectional SRU cannot know it;
// with --target-delay=2 it can.
func TestDelayLearnsLookahead(t *testing.T) {
	acc := map[int]float64{}
	for _, delay := range []int{0, 2} {
		o := tinyOptions(KindSRU)
		o.SRU.Hidden, o.NumPdfs, o.InputDim, o.TargetDelay = 8, 3, 6, delay
		m, err := New(o, 5)
		if err != nil {
			t.Fatal(err)
		}
		to := DefaultTrainOptions()
		to.MaxEpochs, to.Patience, to.BatchUtts, to.Quantum = 6, 100, 4, 10
		to.Adam.LearningRate = 0.02
		tr, err := NewTrainer(&File{Model: m, Pipeline: Pipeline{RawDim: 6, CMVN: CMVNNone}}, to)
		if err != nil {
			t.Fatal(err)
		}
		lookahead := func(us []*Utterance) []*Utterance {
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
	checkResumeBitwise(t, func(o *Options, _ *TrainOptions) { o.PhiZ, o.TargetDelay = PhiZFree, 2 })
}
