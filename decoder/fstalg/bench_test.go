package fstalg

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/decoder"
)

// lexiconLike returns a functional transducer shaped like a lexicon loop:
// nWords words of 2..7 labels out of nLabels, the word on the first arc,
// back to the loop state. Determinizing it builds the prefix tree.
func lexiconLike(nWords, nLabels int, seed int64) *decoder.VectorFst {
	rng := rand.New(rand.NewSource(seed))
	f := decoder.NewVectorFst()
	loop := f.AddState()
	f.Start = loop
	f.SetFinal(loop, 0)
	seen := map[string]bool{}
	for w := 1; w <= nWords; w++ {
		n := 2 + rng.Intn(6)
		pron := make([]decoder.Label, n)
		for {
			for i := range pron {
				pron[i] = decoder.Label(1 + rng.Intn(nLabels))
			}
			if k := fmt.Sprint(pron); !seen[k] {
				seen[k] = true
				break
			}
		}
		// A word-end label (as a disambiguation symbol would) keeps words
		// that are prefixes of others apart, so the lexicon is functional.
		pron = append(pron, decoder.Label(nLabels+1))
		n = len(pron)
		cur := loop
		for i, p := range pron {
			next := loop
			if i+1 < n {
				next = f.AddState()
			}
			o := decoder.Label(0)
			if i == 0 {
				o = decoder.Label(w)
			}
			f.AddArc(cur, decoder.Arc{ILabel: p, OLabel: o, Weight: float32(rng.Intn(4)) / 4, NextState: next})
			cur = next
		}
	}
	return f
}

func BenchmarkDeterminizeStarLexicon(b *testing.B) {
	f := lexiconLike(2000, 40, 1)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := DeterminizeStar(f, DefaultDeterminizeOptions()); err != nil {
			b.Skip("lexicon not functional:", err)
		}
	}
}

func BenchmarkMinimizeEncodedLexicon(b *testing.B) {
	f := lexiconLike(2000, 40, 1)
	d, err := DeterminizeStar(f, DefaultDeterminizeOptions())
	if err != nil {
		b.Skip("lexicon not functional:", err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		m := d.Copy()
		MinimizeEncoded(m, decoder.KDelta)
	}
}

func BenchmarkComposeLexiconLoop(b *testing.B) {
	l := lexiconLike(2000, 40, 1)
	// A word loop over the lexicon's words.
	g := decoder.NewVectorFst()
	s := g.AddState()
	g.Start = s
	g.SetFinal(s, 0)
	for w := 1; w <= 2000; w++ {
		g.AddArc(s, decoder.Arc{ILabel: decoder.Label(w), OLabel: decoder.Label(w), Weight: 7.6, NextState: s})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Compose(l, g, DefaultComposeOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
