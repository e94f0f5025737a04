package am

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/strode-asr/strode/features"
)

// unspliced returns copies of us with the raw frames of dimension raw and
// Context {left, right}, and the same utterances spliced as the feature
// pipeline splices them.
func unspliced(t *testing.T, rng *rand.Rand, lengths []int, raw, left, right, pdfs int) (rawUtts, splicedUtts []*Utterance) {
	t.Helper()
	for i, l := range lengths {
		u := &Utterance{Key: string(rune('a' + i)), Rows: l, Feats: make([]float32, l*raw), Targets: make([]int32, l), Context: [2]int{left, right}}
		for j := range u.Feats {
			u.Feats[j] = float32(rng.NormFloat64())
		}
		for j := range u.Targets {
			u.Targets[j] = int32(rng.Intn(pdfs))
		}
		f, err := features.SpliceFrames(u.Feats, l, raw, left, right)
		if err != nil {
			t.Fatal(err)
		}
		rawUtts = append(rawUtts, u)
		splicedUtts = append(splicedUtts, &Utterance{Key: u.Key, Rows: l, Feats: f, Targets: u.Targets})
	}
	return rawUtts, splicedUtts
}

// TestUnsplicedUtterances: raw frames with a splice context give the same
// minibatch (training loss and logits), the same forward output, the same
// target-delayed utterances and the same Spliced rows (what the trainer's
// SpecAugment masks) as the features spliced beforehand; a dimension that
// does not fit is an error.
func TestUnsplicedUtterances(t *testing.T) {
	const raw, left, right = 3, 2, 1
	for _, kind := range []string{KindSRU, KindSTRODE} {
		o := tinyOptions(kind)
		o.InputDim = raw * (1 + left + right)
		m, err := New(o, 1)
		if err != nil {
			t.Fatal(err)
		}
		rawU, splU := unspliced(t, rand.New(rand.NewSource(2)), []int{7, 1, 5}, raw, left, right, o.NumPdfs)
		run := func(us []*Utterance) (loss float64, logits []float64) {
			g, err := m.Build(7, 3, Eval)
			if err != nil {
				t.Fatal(err)
			}
			defer g.Close()
			if err := g.Load(us, nil); err != nil {
				t.Fatal(err)
			}
			if err := g.Run(); err != nil {
				t.Fatal(err)
			}
			return g.Stats().CE, g.Output(0, nil)
		}
		l1, o1 := run(rawU)
		l2, o2 := run(splU)
		if l1 != l2 || !slices.Equal(o1, o2) {
			t.Fatalf("%s: minibatch of raw frames: loss %v, spliced %v", kind, l1, l2)
		}
		f := NewForwarder(m)
		a, err := f.Logits(rawU[0])
		if err != nil {
			t.Fatal(err)
		}
		a = slices.Clone(a)
		b, err := f.Logits(splU[0])
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(a, b) {
			t.Fatalf("%s: forward of raw frames differs from spliced", kind)
		}
	}
	rawU, splU := unspliced(t, rand.New(rand.NewSource(3)), []int{9}, raw, left, right, 4)
	d1, err := delayed(rawU[0], 2)
	if err != nil {
		t.Fatal(err)
	}
	d2, _ := delayed(splU[0], 2)
	if d1.Context != [2]int{} || !slices.Equal(d1.Feats, d2.Feats) || !slices.Equal(d1.Targets, d2.Targets) {
		t.Fatal("delayed raw frames differ from delayed spliced ones")
	}
	s1, err := rawU[0].Spliced()
	if err != nil {
		t.Fatal(err)
	}
	if s1.Context != [2]int{} || !slices.Equal(s1.Feats, splU[0].Feats) || splU[0].Context != [2]int{} {
		t.Fatal("Spliced raw frames differ from the features spliced beforehand")
	}
	if s2, _ := splU[0].Spliced(); s2 != splU[0] {
		t.Fatal("Spliced copied features that were spliced already")
	}
	if rawU[0].Context != [2]int{left, right} || len(rawU[0].Feats) != 9*raw {
		t.Fatal("delayed or Spliced changed the original utterance")
	}
	o := tinyOptions(KindSRU)
	o.InputDim = raw * (1 + left + right)
	m, _ := New(o, 1)
	bad := &Utterance{Key: "bad", Rows: 2, Feats: make([]float32, 2*(raw+1)), Context: [2]int{left, right}}
	if _, err := NewForwarder(m).Logits(bad); err == nil {
		t.Fatal("raw frames of the wrong dimension accepted")
	}
}
