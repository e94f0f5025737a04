package mkgraph

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

func TestGrammars(t *testing.T) {
	lang, err := PrepareLang(DigitsDict(false), "<SIL>", positionIndependent())
	if err != nil {
		t.Fatal(err)
	}
	words := GrammarWords(lang.Words, "<SIL>")
	if len(words) != 10 || slices.Contains(words, "oh") || slices.Contains(words, "#0") {
		t.Fatalf("grammar words %v", words)
	}
	one, err := OneWordGrammar(lang.Words, words)
	if err != nil {
		t.Fatal(err)
	}
	loop, err := WordLoopGrammar(lang.Words, words)
	if err != nil {
		t.Fatal(err)
	}
	if one.NumStates() != 2 || one.NumArcs() != 10 || loop.NumStates() != 2 || loop.NumArcs() != 20 {
		t.Errorf("one-word %d/%d, loop %d/%d states/arcs", one.NumStates(), one.NumArcs(), loop.NumStates(), loop.NumArcs())
	}
	if _, err := OneWordGrammar(lang.Words, []string{"eleven"}); err == nil {
		t.Error("unknown grammar word accepted")
	}
}

// TestDigitGraphsKaldiMini builds the digit-loop and one-digit graphs of
// the built-in digits dictionary (which is kaldi-mini's) for kaldi-mini's
// model: the loop graph decodes the golden utterances to Kaldi's 1-best,
// the one-digit graph to a single word.
func TestDigitGraphsKaldiMini(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	tm, err := hmm.ReadTransitionModel(filepath.Join(dir, "exp/mono/final.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := tree.Read(filepath.Join(dir, "exp/mono/tree"))
	if err != nil {
		t.Fatal(err)
	}
	lang, err := PrepareLang(DigitsDict(true), "<SIL>", positionIndependent())
	if err != nil {
		t.Fatal(err)
	}
	words := GrammarWords(lang.Words, "<SIL>")
	loopG, _ := WordLoopGrammar(lang.Words, words)
	oneG, _ := OneWordGrammar(lang.Words, words)
	loop, err := BuildHCLG(tm, tree, lang.LDisambig, loopG, lang.PhoneDisambig, DefaultMkGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	one, err := BuildHCLG(tm, tree, lang.LDisambig, oneG, lang.PhoneDisambig, DefaultMkGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("digit loop HCLG %d states %d arcs; one digit %d states %d arcs", loop.Fst.NumStates(), loop.Fst.NumArcs(), one.Fst.NumStates(), one.Fst.NumArcs())
	want := readIntArchive(t, filepath.Join(dir, "golden/test5_1best.tra"))
	tid2pdf := tm.TransitionIDToPdfArray()
	for _, u := range readLoglikes(t, filepath.Join(dir, "golden/test5_loglikes.ark")) {
		got, _ := viterbi(loop.Fst, tid2pdf, u.m, 0.083333)
		if !slices.Equal(got, want[u.key]) {
			t.Errorf("%s: digit loop gives %v, Kaldi %v", u.key, got, want[u.key])
		}
		got, _ = viterbi(one.Fst, tid2pdf, u.m, 0.083333)
		if len(got) != 1 {
			t.Errorf("%s: one-digit graph gives %v", u.key, got)
		}
	}
}

func TestSentencesGrammar(t *testing.T) {
	lang, err := PrepareLang(DigitsDict(false), "<SIL>", positionIndependent())
	if err != nil {
		t.Fatal(err)
	}
	sents := [][]string{{"one", "two", "three"}, {"one", "two", "four"}, {"five"}, {"five"}}
	g, err := SentencesGrammar(lang.Words, sents)
	if err != nil {
		t.Fatal(err)
	}
	// States: start, after one, after one two, final (shared suffix end).
	if g.NumStates() != 4 {
		t.Errorf("%d states, want 4:\n%s", g.NumStates(), fstText(t, g))
	}
	// "five" twice: probability 1/2; the two others 1/4 each.
	id := func(w string) fst.Label { k, _ := lang.Words.Key(w); return fst.Label(k) }
	a, ok := arcOn(g, g.Start, id("five"))
	if !ok || abs(float64(a.Weight+g.States[a.NextState].Final)-0.6931) > 1e-3 {
		t.Errorf("five: arc %+v", a)
	}
	if _, err := SentencesGrammar(lang.Words, [][]string{{"eleven"}}); err == nil {
		t.Error("unknown word accepted")
	}
}
