package mkgraph

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"math/rand"
	"slices"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// SyntheticDict returns a dictionary of nWords random words for
// benchmarks and tests: 39 non-silence phones plus SIL, pronunciations of
// 2 to 7 phones drawn uniformly (distinct per word, so only genuine
// prefixes and homophones need disambiguation symbols), word names w0000…,
// and <SIL> (the OOV word) pronounced SIL. The same seed gives the same
// dictionary.
func SyntheticDict(nWords int, seed int64) *Dict {
	rng := rand.New(rand.NewSource(seed))
	var phones []string
	for i := 0; i < 39; i++ {
		phones = append(phones, fmt.Sprintf("P%02d", i))
	}
	d := &Dict{SilencePhones: [][]string{{"SIL"}}, OptionalSilence: "SIL"}
	for _, p := range phones {
		d.NonsilencePhones = append(d.NonsilencePhones, []string{p})
	}
	d.Lexicon = append(d.Lexicon, LexEntry{"<SIL>", 1, []string{"SIL"}})
	for i := 0; i < nWords; i++ {
		n := 2 + rng.Intn(6)
		pron := make([]string, n)
		for k := range pron {
			pron[k] = phones[rng.Intn(len(phones))]
		}
		d.Lexicon = append(d.Lexicon, LexEntry{fmt.Sprintf("w%04d", i), 1, pron})
	}
	return d
}

// WriteSyntheticBigramArpa writes a back-off bigram ARPA model over words:
// random unigram probabilities, perWord random successors for each word
// (and for <s>) with their bigram probabilities, and back-off weights that
// leave the rest of each history's mass to the unigrams. Probabilities are
// consistent enough for a graph-building benchmark, not a trained LM.
func WriteSyntheticBigramArpa(w io.Writer, words []string, perWord int, seed int64) error {
	rng := rand.New(rand.NewSource(seed))
	bw := bufio.NewWriter(w)
	vocab := append(slices.Clone(words), "</s>")
	uni := make([]float64, len(vocab))
	sum := 0.0
	for i := range uni {
		uni[i] = 0.5 + rng.Float64()
		sum += uni[i]
	}
	for i := range uni {
		uni[i] /= sum
	}
	type bigram struct {
		h, w string
		p    float64
	}
	var bigrams []bigram
	backoff := map[string]float64{}
	for _, h := range append([]string{"<s>"}, words...) {
		seen := map[int]bool{}
		mass := 0.0
		for k := 0; k < perWord && k < len(vocab); k++ {
			j := rng.Intn(len(vocab))
			for seen[j] {
				j = rng.Intn(len(vocab))
			}
			seen[j] = true
			p := 0.5 / float64(perWord) * (0.5 + rng.Float64())
			mass += p
			bigrams = append(bigrams, bigram{h, vocab[j], p})
		}
		// Back-off weight: remaining mass over the unigram mass not covered.
		covered := 0.0
		for j := range seen {
			covered += uni[j]
		}
		backoff[h] = (1 - mass) / (1 - covered)
	}
	fmt.Fprintf(bw, "\\data\\\nngram 1=%d\nngram 2=%d\n\n\\1-grams:\n", len(vocab)+1, len(bigrams))
	fmt.Fprintf(bw, "-99\t<s>\t%.6f\n", math.Log10(backoff["<s>"]))
	for i, v := range vocab {
		if v == "</s>" {
			fmt.Fprintf(bw, "%.6f\t</s>\n", math.Log10(uni[i]))
			continue
		}
		fmt.Fprintf(bw, "%.6f\t%s\t%.6f\n", math.Log10(uni[i]), v, math.Log10(backoff[v]))
	}
	fmt.Fprintf(bw, "\n\\2-grams:\n")
	for _, b := range bigrams {
		fmt.Fprintf(bw, "%.6f\t%s %s\n", math.Log10(b.p), b.h, b.w)
	}
	fmt.Fprintf(bw, "\n\\end\\\n")
	return bw.Flush()
}

// HCLGInputs bundles what BuildHCLG needs besides the lang directory.
type HCLGInputs struct {
	TM   *hmm.TransitionModel
	Tree *tree.ContextDependency
	G    *fst.VectorFst
	// Arpa is the ARPA text G was made from (SyntheticBigram).
	Arpa []byte
}

// SyntheticBigram makes the inputs of the synthetic bigram graph that
// bench/mkgraph.sh times and the decoding benchmarks decode (with position-independent phones, as
// the graph sizes recorded there were measured): the lang of
// SyntheticDict(nWords, seed), a back-off bigram with perWord successors per
// history (WriteSyntheticBigramArpa, seed+1) as G with #0 on its back-off
// arcs, and a monophone tree and transition model of the lang's topology.
func SyntheticBigram(nWords, perWord int, seed int64) (*Lang, *HCLGInputs, error) {
	lang, err := PrepareLang(SyntheticDict(nWords, seed), "<SIL>", positionIndependent())
	if err != nil {
		return nil, nil, err
	}
	var arpa bytes.Buffer
	if err := WriteSyntheticBigramArpa(&arpa, GrammarWords(lang.Words, "<SIL>"), perWord, seed+1); err != nil {
		return nil, nil, err
	}
	text := slices.Clone(arpa.Bytes())
	opt := DefaultArpaOptions()
	opt.DisambigSymbol = "#0"
	g, _, err := ArpaToFst(&arpa, "synthetic.arpa", lang.Words, opt, nil)
	if err != nil {
		return nil, nil, err
	}
	tree, err := MonophoneTree(&lang.Topo, lang.PhoneSets())
	if err != nil {
		return nil, nil, err
	}
	tm, err := MonophoneTransitionModel(lang.Topo, tree)
	if err != nil {
		return nil, nil, err
	}
	return lang, &HCLGInputs{TM: tm, Tree: tree, G: g, Arpa: text}, nil
}
