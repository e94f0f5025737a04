package am

import (
	"bytes"
	"strings"
	"testing"
)

// TestLookaheadStatsCounts: a hand-made utterance's look-ahead as asked and
// in frame order, their means and nearest-rank p95, the text round trip
// and merging.
func TestLookaheadStatsCounts(t *testing.T) {
	o := tinyOptions(KindSTRODE)
	o.HeadVariant, o.MaxLookahead = HeadLookahead, 4
	s, err := NewLookaheadStats(o, Pipeline{SpliceRight: 1})
	if err != nil {
		t.Fatal(err)
	}
	if s.Variant != LookaheadVariable || s.Fixed != 1 || s.Max != 5 {
		t.Fatalf("variant %s fixed %d max %d", s.Variant, s.Fixed, s.Max)
	}
	// extra 3 0 0 1 4 0: asked 4 1 1 2 5 1; every output up to frame i
	// known at frames 4 4 4 5 9 9, so in order 4 3 2 2 5 4.
	if err := s.Add([]int{3, 0, 0, 1, 4, 0}, 6); err != nil {
		t.Fatal(err)
	}
	want := func(name string, got []int64, w ...int64) {
		if len(got) != len(w) {
			t.Fatalf("%s: %v, want %v", name, got, w)
		}
		for i := range w {
			if got[i] != w[i] {
				t.Errorf("%s: %v, want %v", name, got, w)
				return
			}
		}
	}
	want("hist", s.Hist, 0, 3, 1, 0, 1, 1)
	want("in order", s.InOrder, 0, 0, 2, 1, 2, 1)
	if m := s.Mean(); m != 14.0/6 {
		t.Errorf("mean %g", m)
	}
	if p := s.Percentile(0.95); p != 5 {
		t.Errorf("p95 %d", p)
	}
	if p := s.Percentile(0.5); p != 1 {
		t.Errorf("median %d", p)
	}
	if m, p := s.InOrderMean(), s.InOrderPercentile(0.95); m != 20.0/6 || p != 5 {
		t.Errorf("in order: mean %g p95 %d", m, p)
	}
	if err := s.Add([]int{5}, 1); err == nil {
		t.Error("a look-ahead beyond max accepted")
	}
	var b bytes.Buffer
	if err := s.Write(&b); err != nil {
		t.Fatal(err)
	}
	r, err := ReadLookaheadStats(strings.NewReader(b.String()), "x")
	if err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if err := r.Merge(s); err != nil {
		t.Fatal(err)
	}
	want("merged", r.Hist, 0, 6, 2, 0, 2, 2)
	if r.Utts != 2 || r.Frames() != 12 {
		t.Errorf("merged: %d utterances, %d frames", r.Utts, r.Frames())
	}
	// A fixed model: every frame the same; a bidirectional one refused.
	f := tinyOptions(KindSRU)
	f.TargetDelay = 2
	fs, err := NewLookaheadStats(f, Pipeline{})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.Add(nil, 3); err != nil {
		t.Fatal(err)
	}
	want("fixed", fs.Hist, 0, 0, 3)
	if err := fs.Merge(s); err == nil {
		t.Error("merged the statistics of two models")
	}
	f.SRU.Bidirectional = true
	if _, err := NewLookaheadStats(f, Pipeline{}); err == nil {
		t.Error("bidirectional model's statistics")
	}
}

// TestReadLookaheadStatsErrors: bad files name the file, line and key.
func TestReadLookaheadStatsErrors(t *testing.T) {
	good := "variant fixed\nfixed 1\nmax 1\nhist 0 4\nin-order-hist 0 4\n"
	if _, err := ReadLookaheadStats(strings.NewReader(good), "ok"); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ text, want string }{
		{"variant both\n", "f:1: look-ahead statistics: variant"},
		{"variant fixed\nmax x\n", "f:2: look-ahead statistics: max"},
		{"variant fixed\nfixed 1\nfixed 1\n", "f:3: look-ahead statistics: fixed: given twice"},
		{"speed 3\n", "f:1: look-ahead statistics: speed: unknown key"},
		{"variant fixed\nfixed 0\nmax 1\nhist 0 -4\n", "f:4: look-ahead statistics: hist"},
		{"variant fixed\nfixed 0\nmax 1\nhist 0 4\n", "no in-order-hist line"},
		{"variant fixed\nfixed 0\nmax 2\nhist 0 4\nin-order-hist 0 4\n", "want max + 1"},
		{"variant fixed\nfixed 0\nmax 1\nhist 0 4\nin-order-hist 0 3\n", "hist counts 4 frames, in-order-hist 3"},
	} {
		_, err := ReadLookaheadStats(strings.NewReader(tc.text), "f")
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.text, err, tc.want)
		}
	}
}
