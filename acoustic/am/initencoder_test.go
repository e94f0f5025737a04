package am

import (
	"errors"
	"math"
	"math/rand"
	"testing"
)

// TestInitEncoder: a strode model whose encoder comes from an sru model
// computes that model's logits (the head's h̃ → logits weights start at
// zero), and an encoder of another size is refused with ErrEncoderMismatch.
// The sru model is as initialised rather than trained (training lives in
// package acoustic/trainer, which imports this one): the copy must be exact
// whatever the parameters are.
func TestInitEncoder(t *testing.T) {
	so := tinyOptions(KindSRU)
	so.SRU.Hidden, so.NumPdfs, so.InputDim = 8, 3, 6
	so.SRU.Dropout = 0.1
	src, err := New(so, 5)
	if err != nil {
		t.Fatal(err)
	}
	data := tinyBatch(rand.New(rand.NewSource(2)), so, []int{17})
	o := src.Opts
	o.Kind = KindSTRODE
	m, err := New(o, 9) // another seed: every parameter differs before the copy
	if err != nil {
		t.Fatal(err)
	}
	if err := m.InitEncoder(src); err != nil {
		t.Fatal(err)
	}
	want, err := NewForwarder(src).Logits(data[0])
	if err != nil {
		t.Fatal(err)
	}
	got, err := NewForwarder(m).Logits(data[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%d logits, want %d", len(got), len(want))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9 {
			t.Fatalf("logit %d: %g, the sru model's %g", i, got[i], want[i])
		}
	}
	for _, edit := range []struct {
		name string
		f    func(*Options)
	}{
		{"hidden", func(o *Options) { o.SRU.Hidden++ }},
		{"layers", func(o *Options) { o.SRU.Layers++ }},
		{"bidirectional", func(o *Options) { o.SRU.Bidirectional = !o.SRU.Bidirectional }},
		{"pdfs", func(o *Options) { o.NumPdfs++ }},
		{"delay", func(o *Options) { o.TargetDelay = 2 }},
	} {
		q := o
		edit.f(&q)
		m, err := New(q, 9)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.InitEncoder(src); !errors.Is(err, ErrEncoderMismatch) {
			t.Errorf("%s: got %v, want ErrEncoderMismatch", edit.name, err)
		}
	}
}
