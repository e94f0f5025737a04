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
