package trainer

import (
	"fmt"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/transform"
)

// TestSMBRGradient checks sMBR's rows against finite differences of its
// objective, the expected frame accuracy A: ∂A/∂L_tj = κ·q_tj on Kaldi's
// kaldi-mini lattice with random logits, for the reference the lattice's
// posterior-best pdfs, with kaldi-mini's silence phones counted wrong and
// as one class; q sums to zero on every frame.
func TestSMBRGradient(t *testing.T) {
	f := newSequenceFixture(t, 2)
	c, tm, prior, logits, num, rng := f.c, f.tm, f.prior, f.logits, f.num, f.rng
	T, P := f.T, f.P
	b, err := os.ReadFile("../../testdata/kaldi-mini/data/lang/phones/silence.csl")
	if err != nil {
		t.Fatal(err)
	}
	sil, err := transform.ParsePhoneList(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	for _, one := range []bool{false, true} {
		acc, err := NewSmbrAccuracy(tm, sil, one)
		if err != nil {
			t.Fatal(err)
		}
		const acwt = 0.5
		objective := func() (float64, []float32) {
			ll, err := loglikes(logits, P, prior)
			if err != nil {
				t.Fatal(err)
			}
			q, st, err := SMBR(c.ToLattice(), ll, num, tm, acwt, 1, acc)
			if err != nil {
				t.Fatal(err)
			}
			if st.Frames != T || st.Criterion != CriterionSMBR {
				t.Fatalf("stats %+v", st)
			}
			return st.Objective, q
		}
		a0, q := objective()
		if a0 < 0 || a0 > float64(T) {
			t.Fatalf("expected accuracy %g outside [0, %d]", a0, T)
		}
		checkRowsSumToZero(t, q, T, P)
		const h = 1e-2
		for k := 0; k < 40; k++ {
			tt, j := rng.Intn(T), rng.Intn(P)
			if k < 20 {
				j = int(num[tt])
			}
			i := tt*P + j
			save := logits[i]
			logits[i] = save + h
			fp, _ := objective()
			logits[i] = save - h
			fm, _ := objective()
			logits[i] = save
			fd := (fp - fm) / (2 * h)
			if want := acwt * float64(q[i]); math.Abs(fd-want) > 1e-3+1e-2*math.Abs(want) {
				t.Errorf("one silence class %v, frame %d pdf %d: finite difference %.6f, κ·q %.6f", one, tt, j, fd, want)
			}
		}
		t.Logf("one silence class %v: %d frames, expected accuracy %.3f", one, T, a0)
	}
}

// TestSmbrAccuracy: Kaldi's frame accuracy, silence counted wrong or as one
// class, on kaldi-mini's monophone model.
func TestSmbrAccuracy(t *testing.T) {
	_, tm := kaldiMiniLattice(t)
	var silTid, speechTid int32
	for tid := int32(1); tid <= int32(tm.NumTransitionIDs()); tid++ {
		if tm.TransitionIDToPhone(tid) == 1 && silTid == 0 {
			silTid = tid
		}
		if tm.TransitionIDToPhone(tid) > 1 && speechTid == 0 {
			speechTid = tid
		}
	}
	silPdf, speechPdf := tm.TransitionIDToPdf(silTid), tm.TransitionIDToPdf(speechTid)
	var otherSilPdf int32 = -1
	for tid := int32(1); tid <= int32(tm.NumTransitionIDs()); tid++ {
		if ph := tm.TransitionIDToPhone(tid); ph == 1 && tm.TransitionIDToPdf(tid) != silPdf {
			otherSilPdf = tm.TransitionIDToPdf(tid)
			break
		}
	}
	if otherSilPdf < 0 {
		t.Fatal("kaldi-mini's silence phone has one pdf")
	}
	sil := []int32{1} // kaldi-mini's silence.csl
	for _, c := range []struct {
		one       bool
		tid, ref  int32
		want      float64
		situation string
	}{
		{false, speechTid, speechPdf, 1, "speech, right pdf"},
		{false, speechTid, silPdf, 0, "speech on silence"},
		{false, silTid, silPdf, 0, "silence, right pdf, silence wrong"},
		{true, silTid, silPdf, 1, "silence, right pdf, one class"},
		{true, silTid, otherSilPdf, 1, "silence, another silence pdf, one class"},
		{false, silTid, otherSilPdf, 0, "silence, another silence pdf"},
		{true, silTid, speechPdf, 0, "silence on speech, one class"},
	} {
		a, err := NewSmbrAccuracy(tm, sil, c.one)
		if err != nil {
			t.Fatal(err)
		}
		if got := a.Frame(c.tid, c.ref); got != c.want {
			t.Errorf("%s: accuracy %g, want %g", c.situation, got, c.want)
		}
	}
}

// TestSmbrAccuracySharedPdf: a pdf that a silence phone and a speech phone
// share cannot tell the alignment's silence frames: refused, naming it.
func TestSmbrAccuracySharedPdf(t *testing.T) {
	_, tm := kaldiMiniLattice(t)
	var silPdf int32 = -1
	for _, tu := range tm.Tuples {
		if tu.Phone == 1 && tu.HmmState == 0 {
			silPdf = tu.ForwardPdf
		}
	}
	for i, tu := range tm.Tuples {
		if tu.Phone == 2 && tu.HmmState == 0 {
			tm.Tuples[i].ForwardPdf, tm.Tuples[i].SelfLoopPdf = silPdf, silPdf
		}
	}
	if err := tm.ComputeDerived(); err != nil {
		t.Fatal(err)
	}
	_, err := NewSmbrAccuracy(tm, []int32{1}, true)
	if err == nil || !strings.Contains(err.Error(), fmt.Sprintf("pdf %d is shared by silence and non-silence phones", silPdf)) {
		t.Errorf("a pdf shared by phones 1 (silence) and 2: %v", err)
	}
}
