package lattice

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// fakeTM is a transition model for hand-built lattices: phone p has
// transition-ids 10p+1 (entering its last state), 10p+2 (its final
// transition) and 10p+3 (the self-loop of its last state, which Kaldi's
// reordered graphs put after the final transition).
type fakeTM struct{}

func (fakeTM) TransitionIDToPhone(tid int32) int32 { return tid / 10 }
func (fakeTM) IsFinal(tid int32) bool              { return tid%10 == 2 }
func (fakeTM) IsSelfLoop(tid int32) bool           { return tid%10 == 3 }

func cw(g, a float32, tids ...int32) CompactWeight {
	return CompactWeight{W: Weight{g, a}, Tids: tids}
}

// linear builds a one-path lattice from arcs (label, weight) and a final
// weight.
func linear(final CompactWeight, arcs ...CompactArc) *CompactLattice {
	c := &CompactLattice{Start: 0}
	c.AddState()
	for i, a := range arcs {
		a.Next = c.AddState()
		c.States[i].Arcs = append(c.States[i].Arcs, a)
	}
	c.States[len(arcs)].Final = final
	return c
}

// arcsOf lists a linear lattice's arcs as "label:tids" and its final
// weight's string.
func arcsOf(t *testing.T, c *CompactLattice) string {
	t.Helper()
	var parts []string
	s := c.Start
	for len(c.States[s].Arcs) > 0 {
		if len(c.States[s].Arcs) != 1 {
			t.Fatalf("not linear at state %d", s)
		}
		a := c.States[s].Arcs[0]
		parts = append(parts, fmt.Sprintf("%d:%v", a.Label, a.W.Tids))
		s = a.Next
	}
	parts = append(parts, fmt.Sprintf("final:%v", c.States[s].Final.Tids))
	return strings.Join(parts, " ")
}

func TestNBestOrderAndCosts(t *testing.T) {
	// 0 -(1: 1.0 | 2: 0.5)-> 1 -(3: 1.0 | 4: 2.0)-> 2 (final 0.25)
	c := &CompactLattice{Start: 0}
	for range 3 {
		c.AddState()
	}
	c.States[0].Arcs = []CompactArc{{Label: 1, W: cw(1, 0, 5), Next: 1}, {Label: 2, W: cw(0.5, 0, 6), Next: 1}}
	c.States[1].Arcs = []CompactArc{{Label: 3, W: cw(0, 1, 7), Next: 2}, {Label: 4, W: cw(0, 2, 8), Next: 2}}
	c.States[2].Final = cw(0.25, 0)
	paths, err := c.NBest(3)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct {
		words string
		cost  float32
	}{{"[2 3]", 1.75}, {"[1 3]", 2.25}, {"[2 4]", 2.75}}
	if len(paths) != len(want) {
		t.Fatalf("%d paths, want %d", len(paths), len(want))
	}
	for i, p := range paths {
		ali, words, w, err := p.LinearSequence()
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(words) != want[i].words || w.Cost() != want[i].cost {
			t.Errorf("path %d: words %v cost %v, want %s %v", i+1, words, w.Cost(), want[i].words, want[i].cost)
		}
		if len(ali) != 2 {
			t.Errorf("path %d: alignment %v", i+1, ali)
		}
	}
	if all, _ := c.NBest(10); len(all) != 4 {
		t.Errorf("n=10 gave %d paths, the lattice has 4", len(all))
	}
}

// The unaligned path of the tests below: silence (phone 1), word 7 = phones
// 2 3 (a begin and an end phone), word 8 = phone 4 (one-phone word), then
// silence again; the word labels sit where a determinized lattice may put
// them, not at the word boundaries.
func unaligned() *CompactLattice {
	return linear(cw(0.5, 0, 12),
		CompactArc{Label: 7, W: cw(1, 2, 11, 12, 13, 21)},
		CompactArc{Label: 0, W: cw(0, 3, 23, 22, 31)},
		CompactArc{Label: 8, W: cw(0.25, 1, 32, 33, 41, 42, 11)},
	)
}

const wantAligned = "0:[11 12 13] 7:[21 23 22 31 32 33] 8:[41 42] 0:[11 12] final:[]"

func checkSameTotal(t *testing.T, in, out *CompactLattice) {
	t.Helper()
	_, w1, c1, _ := in.LinearSequence()
	_, w2, c2, _ := out.LinearSequence()
	if fmt.Sprint(w1) != fmt.Sprint(w2) || c1 != c2 {
		t.Errorf("aligned path: words %v weight %v, input %v %v", w2, c2, w1, c1)
	}
}

func TestAlignWordsBoundary(t *testing.T) {
	info, err := ReadWordBoundary(strings.NewReader("1 nonword\n2 begin\n3 end\n4 singleton\n5 internal\n"), "word_boundary.int")
	if err != nil {
		t.Fatal(err)
	}
	in := unaligned()
	out, ok := AlignWords(in, fakeTM{}, info)
	if !ok {
		t.Fatal("alignment reported an error")
	}
	if got := arcsOf(t, out); got != wantAligned {
		t.Errorf("aligned %s\nwant    %s", got, wantAligned)
	}
	checkSameTotal(t, in, out)

	// Silence label set: silence arcs carry it.
	info.SilenceLabel = 99
	out, _ = AlignWords(in, fakeTM{}, info)
	if got := arcsOf(t, out); !strings.HasPrefix(got, "99:[11 12 13] 7:") || !strings.Contains(got, "99:[11 12]") {
		t.Errorf("with --silence-label=99: %s", got)
	}
	info.SilenceLabel = 0

	// A lattice forced out in the middle of word 9 (phones 2, 5 and no end
	// phone): the partial word goes out with its label, and the error is
	// reported.
	cut := linear(cw(0, 0), CompactArc{Label: 7, W: cw(0, 1, 21, 22, 31, 32)}, CompactArc{Label: 9, W: cw(0, 1, 21, 22, 51)})
	out, ok = AlignWords(cut, fakeTM{}, info)
	if ok {
		t.Error("a word cut off at the end aligned without error")
	}
	if got := arcsOf(t, out); got != "7:[21 22 31 32] 9:[21 22 51] final:[]" {
		t.Errorf("partial word: %s", got)
	}
	// Phones with no word at the end: the partial-word label.
	info.PartialWordLabel = 77
	cut = linear(cw(0, 0), CompactArc{Label: 7, W: cw(0, 1, 21, 22, 31, 32, 21)})
	out, ok = AlignWords(cut, fakeTM{}, info)
	if got := arcsOf(t, out); ok || got != "7:[21 22 31 32] 77:[21] final:[]" {
		t.Errorf("partial word without label: ok=%v %s", ok, got)
	}
}

func TestAlignWordsLexicon(t *testing.T) {
	// Word 7 = phones 2 3, word 8 = phone 4, optional silence = phone 1,
	// and word 10 = phones 2 3 4 (sharing word 7's start).
	lex, err := ReadAlignLexicon(strings.NewReader("0 0 1\n7 7 2 3\n8 8 4\n10 10 2 3 4\n"), "align_lexicon.int")
	if err != nil {
		t.Fatal(err)
	}
	in := unaligned()
	out, ok := AlignWordsLexicon(in, fakeTM{}, lex)
	if !ok {
		t.Fatal("alignment reported an error")
	}
	if got := arcsOf(t, out); got != wantAligned {
		t.Errorf("aligned %s\nwant    %s", got, wantAligned)
	}
	checkSameTotal(t, in, out)

	// A lattice with two paths that share the phones 2 3 4 but differ in
	// words: 7 8 (cheaper) and 10. Both come out word-aligned, with their
	// own costs.
	c := &CompactLattice{Start: 0}
	for range 4 {
		c.AddState()
	}
	c.States[0].Arcs = []CompactArc{{Label: 7, W: cw(1, 0, 21, 22, 31), Next: 1}, {Label: 10, W: cw(3, 0, 21, 22, 31), Next: 2}}
	c.States[1].Arcs = []CompactArc{{Label: 8, W: cw(0, 0, 32, 41, 42), Next: 3}}
	c.States[2].Arcs = []CompactArc{{Label: 0, W: cw(0, 0, 32, 41, 42), Next: 3}}
	c.States[3].Final = cw(0, 0)
	out, ok = AlignWordsLexicon(c, fakeTM{}, lex)
	if !ok {
		t.Fatal("two-path lattice: error")
	}
	paths, _ := out.NBest(5)
	var got []string
	for _, p := range paths {
		_, _, w, _ := p.LinearSequence()
		got = append(got, fmt.Sprintf("%s (%v)", arcsOf(t, p), w.Cost()))
	}
	want := []string{"7:[21 22 31 32] 8:[41 42] final:[] (1)", "10:[21 22 31 32 41 42] final:[] (3)"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("paths %q\nwant  %q", got, want)
	}

	// Phones that fit no pronunciation: nothing aligns.
	bad := linear(cw(0, 0), CompactArc{Label: 7, W: cw(0, 0, 31, 32, 21, 22)})
	if _, ok := AlignWordsLexicon(bad, fakeTM{}, lex); ok {
		t.Errorf("phones 3 2 aligned as word 7")
	}
	if _, err := ReadAlignLexicon(strings.NewReader("7 7\n"), "lex.int"); err == nil || !strings.Contains(err.Error(), "lex.int: line 1") {
		t.Errorf("short line: %v", err)
	}
	if _, err := ReadWordBoundary(strings.NewReader("1 nonword\n2 middle\n"), "wb.int"); err == nil || !strings.Contains(err.Error(), "wb.int: line 2") {
		t.Errorf("bad kind: %v", err)
	}
}

func TestWordAlignmentTimes(t *testing.T) {
	info, _ := ReadWordBoundary(strings.NewReader("1 nonword\n2 begin\n3 end\n4 singleton\n"), "wb")
	out, _ := AlignWords(unaligned(), fakeTM{}, info)
	words, begin, length, finalTids, err := out.WordAlignment()
	if err != nil || finalTids {
		t.Fatal(err, finalTids)
	}
	if got := fmt.Sprint(words, begin, length); got != "[0 7 8 0] [0 3 9 11] [3 6 2 2]" {
		t.Errorf("word alignment %s", got)
	}
	times, frames, err := out.StateTimes()
	if err != nil || frames != 13 || times[out.Start] != 0 {
		t.Errorf("state times %v frames %d err %v", times, frames, err)
	}
}

// A two-path lattice (word 5 with cost 1, word 6 with cost 2, each 3
// frames): the sausage has one word bin, whose posteriors are by hand
// p(5) = e^-1 / (e^-1 + e^-2) and p(6) = 1 - p(5); MBR keeps word 5 with
// that confidence, and the Bayes risk is the expected number of errors,
// p(6) (plus the algorithm's 1e-5 per epsilon match).
func TestMBRTwoPaths(t *testing.T) {
	c := &CompactLattice{Start: 0}
	c.AddState()
	c.AddState()
	c.States[0].Arcs = []CompactArc{{Label: 5, W: cw(0.5, 0.5, 1, 1, 2), Next: 1}, {Label: 6, W: cw(1, 1, 1, 2, 2), Next: 1}}
	c.States[1].Final = cw(0, 0)
	p5 := math.Exp(-1) / (math.Exp(-1) + math.Exp(-2))
	for _, decode := range []bool{true, false} {
		m, err := NewMBR(c, nil, decode)
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(m.OneBest) != "[5]" || math.Abs(float64(m.Confidences[0])-p5) > 1e-6 {
			t.Errorf("decode=%v: one-best %v confidences %v, want [5] [%.7f]", decode, m.OneBest, m.Confidences, p5)
		}
		if m.Times[0] != [2]float32{0, 3} {
			t.Errorf("times %v, want [0 3]", m.Times[0])
		}
		if math.Abs(m.BayesRisk-(1-p5)) > 1e-4 {
			t.Errorf("Bayes risk %v, want %v", m.BayesRisk, 1-p5)
		}
		if len(m.Sausage) != 3 || m.Sausage[1][0].Word != 5 || m.Sausage[1][1].Word != 6 || math.Abs(float64(m.Sausage[1][1].Post)-(1-p5)) > 1e-6 {
			t.Errorf("sausage %v", m.Sausage)
		}
	}
	// Started from the worse word: MBR moves to word 5; MAP keeps 6 with
	// its posterior.
	if m, _ := NewMBR(c, []int32{6}, true); fmt.Sprint(m.OneBest) != "[5]" {
		t.Errorf("MBR from [6]: %v", m.OneBest)
	}
	if m, _ := NewMBR(c, []int32{6}, false); fmt.Sprint(m.OneBest) != "[6]" || math.Abs(float64(m.Confidences[0])-(1-p5)) > 1e-6 {
		t.Errorf("MAP from [6]: %v %v", m.OneBest, m.Confidences)
	}
}

func TestOracle(t *testing.T) {
	// Paths 1 2 3 (cheaper) and 1 4, an epsilon arc in the first.
	c := &CompactLattice{Start: 0}
	for range 5 {
		c.AddState()
	}
	c.States[0].Arcs = []CompactArc{{Label: 1, W: cw(0, 0), Next: 1}}
	c.States[1].Arcs = []CompactArc{{Label: 2, W: cw(0, 0), Next: 2}, {Label: 4, W: cw(5, 0), Next: 4}}
	c.States[2].Arcs = []CompactArc{{Label: 0, W: cw(0, 0), Next: 3}}
	c.States[3].Arcs = []CompactArc{{Label: 3, W: cw(0, 0), Next: 4}}
	c.States[4].Final = cw(0, 0)
	for _, tc := range []struct {
		ref, wild []int32
		want      string
	}{
		{[]int32{1, 4}, nil, "[1 4] 0 0 0"},
		{[]int32{1, 2, 3}, nil, "[1 2 3] 0 0 0"},
		{[]int32{1, 5, 3}, nil, "[1 2 3] 1 0 0"},
		{[]int32{1}, nil, "[1 4] 0 1 0"},
		{[]int32{1, 2, 3, 6}, nil, "[1 2 3] 0 0 1"},
		{[]int32{1, 9, 4}, []int32{9}, "[1 4] 0 0 0"},
	} {
		w := map[int32]bool{}
		for _, x := range tc.wild {
			w[x] = true
		}
		r, err := c.Oracle(tc.ref, w)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(r.Words, r.Sub, r.Ins, r.Del); got != tc.want {
			t.Errorf("ref %v: %s, want %s", tc.ref, got, tc.want)
		}
	}
}
