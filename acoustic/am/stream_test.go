package am

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/sru"
)

// streamOptions are small causal models of every kind, wide enough that
// the σ runs vectorised with a remainder (H = 12).
func streamOptions(kind string) Options {
	o := tinyOptions(kind)
	o.SRU = sru.Options{Hidden: 12, Layers: 2, Activation: sru.Identity}
	o.InputDim, o.NumPdfs = 7, 9
	o.ODEState, o.ODEHidden, o.PhiHidden = 5, 6, 6
	return o
}

// The causal model's chunked forward equals its whole-utterance forward
// (Forwarder) bit for bit, for every kind: for sru and odernn the same
// float32 operations run; for strode and dnn the per-frame layers are the
// same float64 graph nodes on fewer rows, and no product of theirs sums
// across rows. Pieces of 1, 7, 18 frames (Kaldi's 0.18 s) and the whole
// utterance, with a target delay too (the last frames come from Finish).
func TestStreamMatchesForwarder(t *testing.T) {
	fixed := 0.7
	cases := []struct {
		name string
		kind string
		edit func(*Options)
	}{
		{"sru", KindSRU, nil},
		{"sru-tanh-delay2", KindSRU, func(o *Options) { o.SRU.Activation = sru.Tanh; o.TargetDelay = 2 }},
		{"odernn", KindODERNN, nil},
		{"strode", KindSTRODE, nil},
		{"strode-free-phi", KindSTRODE, func(o *Options) { o.PhiZ = PhiZFree }},
		{"strode-fixed-ttilde-delay3", KindSTRODE, func(o *Options) { o.FixedTTilde = &fixed; o.TargetDelay = 3 }},
		{"strode-htilde", KindSTRODE, func(o *Options) { o.HeadVariant = HeadHTilde }},
		{"strode-gated-free-phi-delay1", KindSTRODE, func(o *Options) { o.HeadVariant, o.PhiZ, o.TargetDelay = HeadGated, PhiZFree, 1 }},
		{"dnn", KindDNN, nil},
	}
	const frames = 75 // the forwarder pads to 100 rows; the tail graphs run 64 + 11
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := streamOptions(tc.kind)
			if tc.edit != nil {
				tc.edit(&o)
			}
			m, err := New(o, 7)
			if err != nil {
				t.Fatal(err)
			}
			u := tinyBatch(rand.New(rand.NewSource(2)), o, []int{frames})[0]
			u.Targets = nil
			fw := NewForwarder(m)
			defer fw.Close()
			want, err := fw.Logits(u)
			if err != nil {
				t.Fatal(err)
			}
			st, err := m.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			for _, piece := range []int{1, 7, 18, frames} {
				if testing.Short() && piece == 1 && (tc.kind == KindSTRODE || tc.kind == KindDNN) {
					continue // a graph run per frame: slow, and 7 covers odd sizes
				}
				st.Reset()
				var got []float64
				for r := 0; r < frames; r += piece {
					k := min(piece, frames-r)
					l, n, err := st.Accept(u.Feats[r*o.InputDim:(r+k)*o.InputDim], k)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, l[:n*o.NumPdfs]...)
				}
				l, n, err := st.Finish()
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, l[:n*o.NumPdfs]...)
				if len(got) != len(want) {
					t.Fatalf("pieces of %d: %d values, forwarder %d", piece, len(got), len(want))
				}
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("pieces of %d: value %d (frame %d): stream %v, forwarder %v", piece, i, i/o.NumPdfs, got[i], want[i])
					}
				}
			}
		})
	}
}

// A bidirectional model cannot stream; Lookahead and CheckCausal say why.
func TestStreamCausality(t *testing.T) {
	o := streamOptions(KindSTRODE)
	p := Pipeline{RawDim: 7, CMVN: CMVNNone, SpliceLeft: 4}
	if err := CheckCausal(o, p); err != nil || Lookahead(o, p) != 0 {
		t.Errorf("causal strode: %v, look-ahead %d", err, Lookahead(o, p))
	}
	o.SRU.Bidirectional = true
	m, err := New(o, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := m.NewStream(); !errors.Is(err, sru.ErrBidirectional) {
		t.Errorf("bidirectional stream: %v", err)
	}
	if err := CheckCausal(o, p); err == nil || Lookahead(o, p) != -1 {
		t.Errorf("bidirectional: %v, look-ahead %d", err, Lookahead(o, p))
	}
	o.SRU.Bidirectional = false
	o.TargetDelay = 2
	p.SpliceRight = 4
	if err := CheckCausal(o, p); err == nil || Lookahead(o, p) != 6 {
		t.Errorf("right context 4, delay 2: %v, look-ahead %d", err, Lookahead(o, p))
	}
	// dnn has no SRU: its look-ahead is the splicing's.
	d := streamOptions(KindDNN)
	d.SRU.Bidirectional = true
	if Lookahead(d, Pipeline{SpliceRight: 5}) != 5 {
		t.Errorf("dnn look-ahead %d", Lookahead(d, Pipeline{SpliceRight: 5}))
	}
}

// The head variants stream as the paper's head does: one stream, Reset
// between utterances, several utterances of other lengths (Forwarder
// graphs of 50, 100 and 150 rows), pieces of 18 frames (Kaldi's 0.18 s),
// bit for bit the whole-utterance forward.
func TestStreamVariantsSeveralUtterances(t *testing.T) {
	for _, v := range []string{HeadPaper, HeadHTilde, HeadGated} {
		t.Run(v, func(t *testing.T) {
			o := streamOptions(KindSTRODE)
			o.HeadVariant, o.PhiZ = v, PhiZFree
			m, err := New(o, 5)
			if err != nil {
				t.Fatal(err)
			}
			fw := NewForwarder(m)
			defer fw.Close()
			st, err := m.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			defer st.Close()
			for _, u := range tinyBatch(rand.New(rand.NewSource(8)), o, []int{75, 33, 120}) {
				u.Targets = nil
				want, err := fw.Logits(u)
				if err != nil {
					t.Fatal(err)
				}
				st.Reset()
				var got []float64
				for r := 0; r < u.Rows; r += 18 {
					k := min(18, u.Rows-r)
					l, n, err := st.Accept(u.Feats[r*o.InputDim:(r+k)*o.InputDim], k)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, l[:n*o.NumPdfs]...)
				}
				l, n, err := st.Finish()
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, l[:n*o.NumPdfs]...)
				if len(got) != len(want) {
					t.Fatalf("%s: %d values streamed, forwarder %d", u.Key, len(got), len(want))
				}
				for i := range want {
					if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
						t.Fatalf("%s: value %d (frame %d): stream %v, forwarder %v", u.Key, i, i/o.NumPdfs, got[i], want[i])
					}
				}
			}
		})
	}
}
