package am

import (
	"errors"
	"math"
	"testing"
)

// TestInitEncoder: a strode model whose encoder comes from a trained sru
// model computes that model's logits (the head's h̃ → logits weights start
// at zero), and an encoder of another size is refused with
// ErrEncoderMismatch.
func TestInitEncoder(t *testing.T) {
	src, data := trainToy(t, KindSRU, 2, "", false)
	o := src.Model.Opts
	o.Kind = KindSTRODE
	m, err := New(o, 9) // another seed: every parameter differs before the copy
	if err != nil {
		t.Fatal(err)
	}
	if err := m.InitEncoder(src.Model); err != nil {
		t.Fatal(err)
	}
	want, err := NewForwarder(src.Model).Logits(data[0])
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
		if err := m.InitEncoder(src.Model); !errors.Is(err, ErrEncoderMismatch) {
			t.Errorf("%s: got %v, want ErrEncoderMismatch", edit.name, err)
		}
	}
}
