package graph

import (
	"bytes"
	"testing"
	"time"
)

// buildSynthetic builds lang, G and the monophone model for a synthetic
// nWords-word bigram with perWord successors per word.
func buildSynthetic(tb testing.TB, nWords, perWord int) (*Lang, *HCLGInputs) {
	tb.Helper()
	lang, err := PrepareLang(SyntheticDict(nWords, 1), "<SIL>", DefaultLangOptions())
	if err != nil {
		tb.Fatal(err)
	}
	var arpa bytes.Buffer
	if err := WriteSyntheticBigramArpa(&arpa, GrammarWords(lang.Words, "<SIL>"), perWord, 2); err != nil {
		tb.Fatal(err)
	}
	opt := DefaultArpaOptions()
	opt.DisambigSymbol = "#0"
	g, _, err := ArpaToFst(&arpa, "synthetic.arpa", lang.Words, opt, nil)
	if err != nil {
		tb.Fatal(err)
	}
	tree, err := MonophoneTree(&lang.Topo, lang.PhoneSets())
	if err != nil {
		tb.Fatal(err)
	}
	tm, err := MonophoneTransitionModel(lang.Topo, tree)
	if err != nil {
		tb.Fatal(err)
	}
	return lang, &HCLGInputs{TM: tm, Tree: tree, G: g}
}

// TestSyntheticBigramGraph builds a small synthetic bigram graph (long
// tests also the 5,000-word one of the acceptance list and report its
// time and size).
func TestSyntheticBigramGraph(t *testing.T) {
	n, per := 300, 10
	if !testing.Short() {
		n = 5000
	}
	lang, in := buildSynthetic(t, n, per)
	start := time.Now()
	h, err := BuildHCLG(in.TM, in.Tree, lang.LDisambig, in.G, lang.PhoneDisambig, DefaultMkGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d-word bigram (%d G states, %d G arcs): HCLG %d states, %d arcs in %v",
		n, in.G.NumStates(), in.G.NumArcs(), h.Fst.NumStates(), h.Fst.NumArcs(), time.Since(start).Round(time.Millisecond))
}

func BenchmarkMkGraph5000(b *testing.B) {
	lang, in := buildSynthetic(b, 5000, 10)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := BuildHCLG(in.TM, in.Tree, lang.LDisambig, in.G, lang.PhoneDisambig, DefaultMkGraphOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
