package mkgraph

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/fstalg"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// triphoneSystem is a tiny system whose tree gives every (left, central,
// right, pdf-class) its own pdf, so a graph with the wrong context cannot
// hide behind shared pdfs.
type triphoneSystem struct {
	lang *Lang
	tree *tree.ContextDependency
	tm   *hmm.TransitionModel
}

func newTriphoneSystem(t *testing.T) *triphoneSystem {
	lex, err := ParseLexicon(strings.NewReader("<SIL> SIL\nab A B\nc C\nba B A\n"), "lex", false)
	if err != nil {
		t.Fatal(err)
	}
	d := &Dict{Lexicon: lex, SilencePhones: [][]string{{"SIL"}}, OptionalSilence: "SIL", NonsilencePhones: [][]string{{"A"}, {"B"}, {"C"}}}
	lang, err := PrepareLang(d, "<SIL>", positionIndependent())
	if err != nil {
		t.Fatal(err)
	}
	phones := lang.Topo.Phones // 1..4
	maxP := phones[len(phones)-1]
	next := int32(0)
	center := make([]tree.EventMap, maxP+1)
	for _, c := range phones {
		nc, _ := lang.Topo.NumPdfClasses(c)
		left := make([]tree.EventMap, maxP+1)
		for l := int32(0); l <= maxP; l++ {
			right := make([]tree.EventMap, maxP+1)
			for r := int32(0); r <= maxP; r++ {
				leaves := make([]tree.EventMap, nc)
				for k := range leaves {
					leaves[k] = &tree.ConstantEventMap{Answer: next}
					next++
				}
				right[r] = &tree.TableEventMap{Key: tree.PdfClassKey, Table: leaves}
			}
			left[l] = &tree.TableEventMap{Key: 2, Table: right}
		}
		center[c] = &tree.TableEventMap{Key: 0, Table: left}
	}
	tree := &tree.ContextDependency{ContextWidth: 3, CentralPosition: 1, ToPdf: &tree.TableEventMap{Key: 1, Table: center}}
	tm := &hmm.TransitionModel{Topo: lang.Topo}
	for _, c := range phones {
		e, _ := lang.Topo.TopologyForPhone(c)
		for l := int32(0); l <= maxP; l++ {
			for r := int32(0); r <= maxP; r++ {
				for s := 0; s+1 < len(e); s++ {
					w := []int32{l, c, r}
					f, _ := tree.Compute(w, e[s].ForwardPdfClass)
					sl, _ := tree.Compute(w, e[s].SelfLoopPdfClass)
					tm.Tuples = append(tm.Tuples, hmm.TransitionTuple{Phone: c, HmmState: int32(s), ForwardPdf: f, SelfLoopPdf: sl})
				}
			}
		}
	}
	slices.SortFunc(tm.Tuples, func(a, b hmm.TransitionTuple) int {
		return cmp.Or(cmp.Compare(a.Phone, b.Phone), cmp.Compare(a.HmmState, b.HmmState), cmp.Compare(a.ForwardPdf, b.ForwardPdf), cmp.Compare(a.SelfLoopPdf, b.SelfLoopPdf))
	})
	tm.LogProbs = []float32{0}
	for _, tu := range tm.Tuples {
		e, _ := lang.Topo.TopologyForPhone(tu.Phone)
		for _, tr := range e[tu.HmmState].Transitions {
			tm.LogProbs = append(tm.LogProbs, float32(math.Log(float64(tr.Prob))))
		}
	}
	if err := tm.ComputeDerived(); err != nil {
		t.Fatal(err)
	}
	return &triphoneSystem{lang, tree, tm}
}

// forwardTids is the transition-id path of a phone sequence that takes
// each HMM's forward transitions only (one frame per emitting state).
func (sys *triphoneSystem) forwardTids(t *testing.T, phones []string, left, right string) []int32 {
	id := func(p string) int32 {
		if p == "" {
			return 0
		}
		k, ok := sys.lang.Phones.Key(p)
		if !ok {
			t.Fatalf("no phone %s", p)
		}
		return int32(k)
	}
	seq := []int32{id(left)}
	for _, p := range phones {
		seq = append(seq, id(p))
	}
	seq = append(seq, id(right))
	var tids []int32
	for i := 1; i+1 < len(seq); i++ {
		w := []int32{seq[i-1], seq[i], seq[i+1]}
		e, _ := sys.tm.Topo.TopologyForPhone(w[1])
		for s := 0; s+1 < len(e); s++ {
			f, _ := sys.tree.Compute(w, e[s].ForwardPdfClass)
			sl, _ := sys.tree.Compute(w, e[s].SelfLoopPdfClass)
			ts := sys.tm.TransitionStateOf(hmm.TransitionTuple{Phone: w[1], HmmState: int32(s), ForwardPdf: f, SelfLoopPdf: sl})
			for k, tr := range e[s].Transitions {
				if tr.Dest == int32(s)+1 {
					tids = append(tids, sys.tm.PairToTransitionID(ts, int32(k)))
				}
			}
		}
	}
	return tids
}

// outputsOf returns the output labels of the best path of f (acyclic).
func outputsOf(f *fst.VectorFst) ([]int32, bool) {
	if f.Start == fst.NoState {
		return nil, false
	}
	var best []int32
	bestW := math.Inf(1)
	var walk func(s fst.StateID, w float64, out []int32)
	walk = func(s fst.StateID, w float64, out []int32) {
		if fw := f.States[s].Final; fw != fst.WeightZero && w+float64(fw) < bestW {
			bestW, best = w+float64(fw), slices.Clone(out)
		}
		for _, a := range f.States[s].Arcs {
			o := out
			if a.OLabel != 0 {
				o = append(slices.Clone(out), a.OLabel)
			}
			walk(a.NextState, w+float64(a.Weight), o)
		}
	}
	walk(f.Start, 0, nil)
	return best, !math.IsInf(bestW, 1)
}

// TestContextDependentHCLG: with context-dependent pdfs, the graph
// accepts the transition-ids of each word sequence's triphones (with the
// words on the output) and rejects the same phones in the wrong context.
func TestContextDependentHCLG(t *testing.T) {
	sys := newTriphoneSystem(t)
	words := GrammarWords(sys.lang.Words, "<SIL>")
	g, err := WordLoopGrammar(sys.lang.Words, words)
	if err != nil {
		t.Fatal(err)
	}
	h, err := BuildHCLG(sys.tm, sys.tree, sys.lang.LDisambig, g, sys.lang.PhoneDisambig, DefaultMkGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("triphone HCLG: %d states, %d arcs", h.Fst.NumStates(), h.Fst.NumArcs())
	word := func(w string) int32 { k, _ := sys.lang.Words.Key(w); return int32(k) }
	accepts := func(tids []int32) ([]int32, bool) {
		c, err := fstalg.Compose(fst.MakeLinearAcceptor(tids), h.Fst, fstalg.DefaultComposeOptions())
		if err != nil {
			t.Fatal(err)
		}
		return outputsOf(c)
	}
	for _, tc := range []struct {
		phones []string
		words  []string
	}{
		{[]string{"A", "B", "C"}, []string{"ab", "c"}},
		{[]string{"C", "B", "A", "A", "B"}, []string{"c", "ba", "ab"}},
		{[]string{"C", "SIL", "C"}, []string{"c", "c"}},
		{[]string{"SIL", "B", "A"}, []string{"ba"}},
	} {
		out, ok := accepts(sys.forwardTids(t, tc.phones, "", ""))
		var want []int32
		for _, w := range tc.words {
			want = append(want, word(w))
		}
		if !ok || !slices.Equal(out, want) {
			t.Errorf("%v: accepted %v with words %v, want %v", tc.phones, ok, out, want)
		}
	}
	// Wrong contexts: the first phone as if preceded by C, the last as if
	// followed by A.
	if _, ok := accepts(sys.forwardTids(t, []string{"A", "B", "C"}, "C", "")); ok {
		t.Error("accepted A B C with left context C at the start")
	}
	if _, ok := accepts(sys.forwardTids(t, []string{"A", "B", "C"}, "", "A")); ok {
		t.Error("accepted A B C with right context A at the end")
	}
}
