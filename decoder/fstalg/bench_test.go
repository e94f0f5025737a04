package fstalg

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
)

// lexiconLike returns a functional transducer shaped like a lexicon loop:
// nWords words of 2..7 labels out of nLabels, the word on the first arc,
// back to the loop state. Determinizing it builds the prefix tree.
func lexiconLike(nWords, nLabels int, seed int64) *fst.VectorFst {
	rng := rand.New(rand.NewSource(seed))
	f := fst.NewVectorFst()
	loop := f.AddState()
	f.Start = loop
	f.SetFinal(loop, 0)
	seen := map[string]bool{}
	for w := 1; w <= nWords; w++ {
		n := 2 + rng.Intn(6)
		pron := make([]fst.Label, n)
		for {
			for i := range pron {
				pron[i] = fst.Label(1 + rng.Intn(nLabels))
			}
			if k := fmt.Sprint(pron); !seen[k] {
				seen[k] = true
				break
			}
		}
		// A word-end label (as a disambiguation symbol would) keeps words
		// that are prefixes of others apart, so the lexicon is functional.
		pron = append(pron, fst.Label(nLabels+1))
		n = len(pron)
		cur := loop
		for i, p := range pron {
			next := loop
			if i+1 < n {
				next = f.AddState()
			}
			o := fst.Label(0)
			if i == 0 {
				o = fst.Label(w)
			}
			f.AddArc(cur, fst.Arc{ILabel: p, OLabel: o, Weight: float32(rng.Intn(4)) / 4, NextState: next})
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
		MinimizeEncoded(m, fst.KDelta)
	}
}

func BenchmarkComposeLexiconLoop(b *testing.B) {
	l := lexiconLike(2000, 40, 1)
	// A word loop over the lexicon's words.
	g := fst.NewVectorFst()
	s := g.AddState()
	g.Start = s
	g.SetFinal(s, 0)
	for w := 1; w <= 2000; w++ {
		g.AddArc(s, fst.Arc{ILabel: fst.Label(w), OLabel: fst.Label(w), Weight: 7.6, NextState: s})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Compose(l, g, DefaultComposeOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
