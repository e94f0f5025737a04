package mkgraph

import (
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/fstalg"
)

// Grammar kinds for recipes without an LM.
const (
	GrammarOneWord  = "one-word"  // exactly one word (isolated words: FSDD)
	GrammarWordLoop = "word-loop" // any sequence of one or more words (connected digits)
)

// labelsOf maps words to their labels in words.txt.
func labelsOf(words *fst.SymbolTable, list []string) ([]fst.Label, error) {
	if len(list) == 0 {
		return nil, fmt.Errorf("%w: grammar over no words", ErrDict)
	}
	out := make([]fst.Label, len(list))
	for i, w := range list {
		k, ok := words.Key(w)
		if !ok {
			return nil, fmt.Errorf("%w: grammar word %q is not in words.txt", ErrDict, w)
		}
		if k == 0 {
			return nil, fmt.Errorf("%w: grammar word %q is epsilon", ErrDict, w)
		}
		out[i] = fst.Label(k)
	}
	return out, nil
}

// OneWordGrammar is G accepting exactly one of the words, each with
// probability 1/N.
func OneWordGrammar(words *fst.SymbolTable, list []string) (*fst.VectorFst, error) {
	ls, err := labelsOf(words, list)
	if err != nil {
		return nil, err
	}
	g := fst.NewVectorFst()
	s, f := g.AddState(), g.AddState()
	g.Start = s
	g.SetFinal(f, fst.WeightOne)
	w := float32(math.Log(float64(len(ls))))
	for _, l := range ls {
		g.AddArc(s, fst.Arc{ILabel: l, OLabel: l, Weight: w, NextState: f})
	}
	fst.ArcSortInput(g)
	return g, nil
}

// WordLoopGrammar is G accepting one or more of the words: a uniform
// unigram loop in which each word and the end of the sentence have
// probability 1/(N+1), as a unigram ARPA model with equal probabilities
// (kaldi-mini's LM) but without the empty sentence.
func WordLoopGrammar(words *fst.SymbolTable, list []string) (*fst.VectorFst, error) {
	ls, err := labelsOf(words, list)
	if err != nil {
		return nil, err
	}
	g := fst.NewVectorFst()
	s, loop := g.AddState(), g.AddState()
	g.Start = s
	w := float32(math.Log(float64(len(ls) + 1)))
	g.SetFinal(loop, w)
	for _, l := range ls {
		g.AddArc(s, fst.Arc{ILabel: l, OLabel: l, Weight: w, NextState: loop})
		g.AddArc(loop, fst.Arc{ILabel: l, OLabel: l, Weight: w, NextState: loop})
	}
	fst.ArcSortInput(g)
	return g, nil
}

// GrammarWords lists the words of words.txt that a generated grammar
// ranges over: every word except <eps>, disambiguation symbols (#…), <s>,
// </s> and the excluded ones (silence and OOV words, say).
func GrammarWords(words *fst.SymbolTable, exclude ...string) []string {
	skip := map[string]bool{"<eps>": true, "<s>": true, "</s>": true}
	for _, e := range exclude {
		skip[e] = true
	}
	var out []string
	for _, e := range words.Entries() {
		if skip[e.Symbol] || (len(e.Symbol) > 0 && e.Symbol[0] == '#') {
			continue
		}
		out = append(out, e.Symbol)
	}
	return out
}

// DigitsDict is the built-in dictionary of the digits recipes: the words
// zero to nine (and "oh" when withOh) in kaldi-mini's ARPAbet-like
// pronunciations, <SIL> for silence (also the OOV word), SIL the silence
// phone.
func DigitsDict(withOh bool) *Dict {
	lex := []LexEntry{
		{"<SIL>", 1, []string{"SIL"}},
		{"eight", 1, []string{"EY", "T"}},
		{"five", 1, []string{"F", "AY", "V"}},
		{"four", 1, []string{"F", "AO", "R"}},
		{"nine", 1, []string{"N", "AY", "N"}},
		{"oh", 1, []string{"OW"}},
		{"one", 1, []string{"W", "AH", "N"}},
		{"seven", 1, []string{"S", "EH", "V", "AH", "N"}},
		{"six", 1, []string{"S", "IH", "K", "S"}},
		{"three", 1, []string{"TH", "R", "IY"}},
		{"two", 1, []string{"T", "UW"}},
		{"zero", 1, []string{"Z", "IH", "R", "OW"}},
	}
	if !withOh {
		lex = append(lex[:5], lex[6:]...)
	}
	var nonsil [][]string
	for _, p := range []string{"AH", "AO", "AY", "EH", "EY", "F", "IH", "IY", "K", "N", "OW", "R", "S", "T", "TH", "UW", "V", "W", "Z"} {
		nonsil = append(nonsil, []string{p})
	}
	return &Dict{Lexicon: lex, SilencePhones: [][]string{{"SIL"}}, NonsilencePhones: nonsil, OptionalSilence: "SIL"}
}

// GrammarSentences is the prefix of a --grammar value naming a file of
// sentences: "sentences:FILE".
const GrammarSentences = "sentences:"

// SentencesGrammar is a fixed grammar: G accepting exactly the given
// sentences (lists of words), each with probability 1/len(sentences)
// (repeated sentences add up), determinized and minimized so shared
// prefixes and suffixes share states.
func SentencesGrammar(words *fst.SymbolTable, sentences [][]string) (*fst.VectorFst, error) {
	if len(sentences) == 0 {
		return nil, fmt.Errorf("%w: grammar with no sentences", ErrDict)
	}
	g := fst.NewVectorFst()
	start, final := g.AddState(), g.AddState()
	g.Start = start
	g.SetFinal(final, fst.WeightOne)
	w := float32(math.Log(float64(len(sentences))))
	for i, sent := range sentences {
		ls, err := labelsOf(words, sent)
		if len(sent) == 0 {
			g.SetFinal(start, fst.LogPlus(g.States[start].Final, w))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("sentence %d: %w", i+1, err)
		}
		cur := start
		for k, l := range ls {
			next := final
			if k+1 < len(ls) {
				next = g.AddState()
			}
			arc := fst.Arc{ILabel: l, OLabel: l, NextState: next}
			if k == 0 {
				arc.Weight = w
			}
			g.AddArc(cur, arc)
			cur = next
		}
	}
	d, err := fstalg.DeterminizeStar(g, fstalg.DefaultDeterminizeOptions())
	if err != nil {
		return nil, err
	}
	fstalg.MinimizeEncoded(d, fst.KDelta)
	fst.ArcSortInput(d)
	return d, nil
}

// ReadSentences reads a sentences file: one sentence per line, words
// separated by white space (a line may be empty: the empty sentence).
func ReadSentences(path string) ([][]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out [][]string
	for _, line := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		out = append(out, strings.Fields(line))
	}
	return out, nil
}
