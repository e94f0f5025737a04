package lattice

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/lm"
)

// twoPaths is a lattice with the word sequences "a b" (graph 1.5, acoustic
// 8, transition-ids 1 2 3) and "b a" (graph 3, acoustic 6, ids 4 5); a is
// word 3 and b word 4, as in the const ARPA below.
func twoPaths() *CompactLattice {
	c := &CompactLattice{Start: 0}
	for range 4 {
		c.AddState()
	}
	c.States[0].Arcs = []CompactArc{
		{Label: 3, W: CompactWeight{W: Weight{1, 5}, Tids: []int32{1, 2}}, Next: 1},
		{Label: 4, W: CompactWeight{W: Weight{2, 4}, Tids: []int32{4}}, Next: 3},
	}
	c.States[1].Arcs = []CompactArc{{Label: 4, W: CompactWeight{W: Weight{0.5, 3}, Tids: []int32{3}}, Next: 2}}
	c.States[3].Arcs = []CompactArc{{Label: 3, W: CompactWeight{W: Weight{1, 2}, Tids: []int32{5}}, Next: 2}}
	c.States[2].Final = CompactOne
	return c
}

// bigramG is a bigram G as arpa2fst | fstproject --project_output makes it:
// 0 the history <s>, 1 the empty history, 2 "a", 3 "b"; back-off arcs on
// epsilon. Best paths by hand: "a b" 0.5 + 0.25 + 0.2 = 0.95; "b a" backs
// off three times: 1.0 + 1.5 + 0.3 + 2.0 + 0.7 + 1.1 = 6.6.
func bigramG() *fst.VectorFst {
	g := fst.NewVectorFst()
	for range 4 {
		g.AddState()
	}
	g.Start = 0
	for s := range g.States {
		g.States[s].Final = fst.WeightZero
	}
	add := func(s, l int32, w float32, n int32) {
		g.AddArc(s, fst.Arc{ILabel: l, OLabel: l, Weight: w, NextState: n})
	}
	add(0, 3, 0.5, 2)
	add(0, 0, 1.0, 1)
	add(1, 3, 2.0, 2)
	add(1, 4, 1.5, 3)
	add(2, 4, 0.25, 3)
	add(2, 0, 0.7, 1)
	add(3, 0, 0.3, 1)
	g.States[3].Final = 0.2
	g.States[1].Final = 1.1
	return g
}

// paths lists a CompactLattice's paths as "words: graph acoustic tids".
type pathCost struct {
	words    []int32
	tids     []int32
	graph, a float64
}

func allPaths(t *testing.T, c *CompactLattice) map[string]pathCost {
	t.Helper()
	out := map[string]pathCost{}
	var walk func(s int32, p pathCost)
	walk = func(s int32, p pathCost) {
		st := c.States[s]
		if !st.Final.W.IsZero() {
			q := p
			q.graph += float64(st.Final.W.Graph)
			q.a += float64(st.Final.W.Acoustic)
			q.tids = append(slices.Clone(q.tids), st.Final.Tids...)
			key := fmtInts(q.words)
			if _, dup := out[key]; dup {
				t.Errorf("word sequence %q twice: not determinized", key)
			}
			out[key] = q
		}
		for _, a := range st.Arcs {
			q := p
			q.graph += float64(a.W.W.Graph)
			q.a += float64(a.W.W.Acoustic)
			q.tids = append(slices.Clone(p.tids), a.W.Tids...)
			if a.Label != 0 {
				q.words = append(slices.Clone(p.words), a.Label)
			}
			walk(a.Next, q)
		}
	}
	walk(c.Start, pathCost{})
	return out
}

func fmtInts(v []int32) string {
	var b strings.Builder
	for i, x := range v {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(rune('0' + x)))
	}
	return b.String()
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-4 }

func checkPaths(t *testing.T, what string, c *CompactLattice, want map[string][2]float64, wantTids map[string][]int32) {
	t.Helper()
	got := allPaths(t, c)
	if len(got) != len(want) {
		t.Errorf("%s: %d word sequences, want %d: %v", what, len(got), len(want), got)
	}
	for k, w := range want {
		p, ok := got[k]
		if !ok {
			t.Errorf("%s: no path %q", what, k)
			continue
		}
		if !near(p.graph, w[0]) || !near(p.a, w[1]) {
			t.Errorf("%s: %q costs (%g, %g), want (%g, %g)", what, k, p.graph, p.a, w[0], w[1])
		}
		if !slices.Equal(p.tids, wantTids[k]) {
			t.Errorf("%s: %q transition-ids %v, want %v", what, k, p.tids, wantTids[k])
		}
	}
}

var twoTids = map[string][]int32{"3 4": {1, 2, 3}, "4 3": {4, 5}}

// lattice-lmrescore with the bigram G, costs by hand: +1 adds the G's best
// path cost to each word sequence's graph cost, -1 subtracts it, and the
// acoustic costs and alignments stay.
func TestRescoreFstByHand(t *testing.T) {
	g := NewComposer(FromFst(bigramG()))
	for _, tc := range []struct {
		scale float32
		want  map[string][2]float64
	}{
		{1, map[string][2]float64{"3 4": {1.5 + 0.95, 8}, "4 3": {3 + 6.6, 6}}},
		{-1, map[string][2]float64{"3 4": {1.5 - 0.95, 8}, "4 3": {3 - 6.6, 6}}},
		{0.5, map[string][2]float64{"3 4": {1.5 + 0.475, 8}, "4 3": {3 + 3.3, 6}}},
	} {
		for _, det := range []bool{true, false} {
			out, err := RescoreFst(twoPaths().ToLattice(), g, RescoreOptions{LMScale: tc.scale, Determinize: det})
			if err != nil {
				t.Fatal(err)
			}
			checkPaths(t, fmt.Sprintf("scale %g determinize %v", tc.scale, det), out, tc.want, twoTids)
		}
	}
	// A word the LM lacks: nothing is left.
	lat := twoPaths()
	lat.States[1].Arcs[0].Label = 9
	lat.States[3].Arcs[0].Label = 9
	out, err := RescoreFst(lat.ToLattice(), g, RescoreOptions{LMScale: 1, Determinize: true})
	if err != nil || out.Start != NoState {
		t.Errorf("incompatible LM: start %d, %v", out.Start, err)
	}
}

// The sequence filter builds each pair of paths once: composing a
// one-word lattice with a G whose start has both an explicit arc for the
// word and a back-off arc gives exactly the two G paths, not more.
func TestComposeSequenceFilter(t *testing.T) {
	lat := &Lattice{Start: 0}
	for range 3 {
		lat.AddState()
	}
	lat.States[0].Arcs = []Arc{{ILabel: 7, OLabel: 0, W: Weight{0, 1}, Next: 1}}
	lat.States[1].Arcs = []Arc{{ILabel: 8, OLabel: 3, W: Weight{0, 1}, Next: 2}}
	lat.States[2].Final = One
	g := bigramG()
	g.States[2].Final = 0 // "a" may end
	out := NewComposer(FromFst(g)).Compose(lat)
	n := 0
	var count func(s int32)
	count = func(s int32) {
		if !out.States[s].Final.IsZero() {
			n++
		}
		for _, a := range out.States[s].Arcs {
			count(a.Next)
		}
	}
	count(out.Start)
	// a directly (0.5), or <s> backed off then a (1.0 + 2.0); then final
	// at "a" (0) or backed off to the empty history (0.7 + 1.1).
	if n != 4 {
		t.Errorf("%d composed paths, want 4", n)
	}
}

const rescoreARPA = `
\data\
ngram 1=4
ngram 2=4
ngram 3=2

\1-grams:
-99	<s>	-0.5
-0.6	</s>
-0.4	a	-0.3
-0.7	b	-0.2

\2-grams:
-0.3	<s> a	-0.1
-0.5	a b	-0.25
-0.4	b </s>
-0.2	a a

\3-grams:
-0.1	<s> a b
-0.15	<s> a a

\end\
`

func constArpa(t *testing.T) *lm.ConstArpa {
	t.Helper()
	var ints strings.Builder
	if _, err := lm.MapARPA(strings.NewReader(rescoreARPA), &ints, "t.arpa", map[string]string{"<s>": "1", "</s>": "2", "a": "3", "b": "4"}, nil); err != nil {
		t.Fatal(err)
	}
	o := lm.DefaultConstArpaOptions()
	o.Bos, o.Eos = 1, 2
	c, err := lm.BuildConstArpa(strings.NewReader(ints.String()), "t.int", o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// lattice-lmrescore-const-arpa, costs by hand (log10 → cost ×ln 10):
// "a b": p(a|<s>) -0.3, p(b|<s> a) -0.1, then the state is "b", not
// "a b": "a b" has no 3-grams, so it is no history state of the model
// (Kaldi's HistoryStateExists) and its back-off weight is never added;
// p(</s>|b) -0.4: 0.8 in all. "b a": bo(<s>) -0.5 + p(b) -0.7, then from
// "b" bo(b) -0.2 + p(a) -0.4, then from "a" bo(a) -0.3 + p(</s>) -0.6: 2.7.
func TestRescoreConstArpaByHand(t *testing.T) {
	c := constArpa(t)
	ab, ba := 0.8*math.Ln10, 2.7*math.Ln10
	for _, det := range []bool{true, false} {
		out, err := RescoreDeterministic(twoPaths(), lm.NewConstArpaFst(c), RescoreOptions{LMScale: 1, Determinize: det})
		if err != nil {
			t.Fatal(err)
		}
		checkPaths(t, "const arpa", out, map[string][2]float64{"3 4": {1.5 + ab, 8}, "4 3": {3 + ba, 6}}, twoTids)
	}
	// Replacing the bigram G's costs by the const ARPA's, as
	// lmrescore_const_arpa.sh does: -1 with G, then +1 with the ConstArpa.
	sub, err := RescoreFst(twoPaths().ToLattice(), NewComposer(FromFst(bigramG())), RescoreOptions{LMScale: -1, Determinize: true})
	if err != nil {
		t.Fatal(err)
	}
	out, err := RescoreDeterministic(sub, lm.NewConstArpaFst(c), RescoreOptions{LMScale: 1, Determinize: true})
	if err != nil {
		t.Fatal(err)
	}
	checkPaths(t, "replaced", out, map[string][2]float64{"3 4": {1.5 - 0.95 + ab, 8}, "4 3": {3 - 6.6 + ba, 6}}, twoTids)
	// With the trigram's costs in place of the bigram's, the best path is
	// "b a" (8.62 against 10.39; with the bigram's it was "a b", 10.45
	// against 15.6).
	best, _ := out.ShortestPath()
	_, words, _, _ := best.LinearSequence()
	if !slices.Equal(words, []int32{4, 3}) {
		t.Errorf("best path %v", words)
	}
}
