package mkgraph

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
)

func TestArpaKaldiMini(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	words, err := fst.ReadSymbolTableFile(filepath.Join(dir, "data/lang/words.txt"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, "data/local/lm.arpa"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	opt := DefaultArpaOptions()
	opt.DisambigSymbol = "#0"
	g, _, err := ArpaToFst(f, "lm.arpa", words, opt, func(w string) { t.Log(w) })
	if err != nil {
		t.Fatal(err)
	}
	want := mustReadFst(t, filepath.Join(dir, "data/lang_test/G.fst"))
	if !g.Equal(want) {
		t.Fatalf("G differs from arpa2fst's:\n%s", fstText(t, g))
	}
}

func fstText(t *testing.T, f *fst.VectorFst) string {
	var b strings.Builder
	if err := fst.WriteText(&b, f, fst.TextOptions{}); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

const bigramArpa = `
\data\
ngram 1=5
ngram 2=4

\1-grams:
-1.0 </s>
-99 <s> -0.5
-0.5 a -0.25
-0.7 b -0.3
-1.2 c

\2-grams:
-0.2 <s> a
-0.3 a b
-0.4 b </s>
-0.1 b c

\end\
`

// TestArpaBigram checks arpa2fst's structure on a small bigram: history
// states for <s>, a and b, the unigram state, back-off arcs on #0, the
// highest-order n-grams going to the unigram-history state, </s> as final
// weights, and the redundant state of c (only a back-off arc) bypassed.
func TestArpaBigram(t *testing.T) {
	opt := DefaultArpaOptions()
	opt.DisambigSymbol = "#0"
	g, words, err := ArpaToFst(strings.NewReader(bigramArpa), "bigram.arpa", nil, opt, nil)
	if err != nil {
		t.Fatal(err)
	}
	id := func(w string) fst.Label {
		k, ok := words.Key(w)
		if !ok {
			t.Fatalf("no %q in the built table", w)
		}
		return fst.Label(k)
	}
	// Score "a b c" then "</s>" by walking G, preferring the explicit
	// n-gram and backing off on #0 when there is none.
	const ln10 = 2.302585093
	walk := func(sent []string) float64 {
		s, cost := g.Start, 0.0
		for _, w := range append(sent, "</s>") {
			for {
				if w == "</s>" {
					if f := g.States[s].Final; f != fst.WeightZero {
						cost += float64(f)
						return cost
					}
				} else if a, ok := arcOn(g, s, id(w)); ok {
					cost += float64(a.Weight)
					s = a.NextState
					break
				}
				a, ok := arcOn(g, s, id("#0"))
				if !ok {
					t.Fatalf("%v: no way to read %q", sent, w)
				}
				cost += float64(a.Weight)
				s = a.NextState
			}
		}
		return cost
	}
	// P(a|<s>) P(b|a) P(c|b) P(</s>|c) with P(</s>|c) = bo(c) P(</s>) = P(</s>).
	want := (0.2 + 0.3 + 0.1 + 1.0) * ln10
	if got := walk([]string{"a", "b", "c"}); abs(got-want) > 1e-4 {
		t.Errorf("cost of a b c = %g, want %g", got, want)
	}
	// P(c|<s>) = bo(<s>) P(c); P(a|c) = P(a) (c has no back-off weight).
	want = (0.5 + 1.2 + 0.5 + 0.25 + 1.0) * ln10
	if got := walk([]string{"c", "a"}); abs(got-want) > 1e-4 {
		t.Errorf("cost of c a = %g, want %g", got, want)
	}
	// States: unigram, <s>, a, b (c's state is redundant and bypassed).
	if n := g.NumStates(); n != 4 {
		t.Errorf("%d states, want 4:\n%s", n, fstText(t, g))
	}
}

func arcOn(g *fst.VectorFst, s fst.StateID, l fst.Label) (fst.Arc, bool) {
	for _, a := range g.States[s].Arcs {
		if a.ILabel == l {
			return a, true
		}
	}
	return fst.Arc{}, false
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}

func TestArpaErrors(t *testing.T) {
	for _, tc := range []struct{ name, text, want string }{
		{"no end", "\\data\\\nngram 1=1\n\\1-grams:\n-1 <s>\n", `missing \end\`},
		{"bad prob", "\\data\\\nngram 1=1\n\\1-grams:\nx <s>\n\\end\\\n", "bad.arpa:4: bad log-probability"},
		{"too many", "\\data\\\nngram 1=1\n\\1-grams:\n-1 <s>\n-1 a\n\\end\\\n", "bad.arpa:5: more 1-grams"},
		{"fields", "\\data\\\nngram 1=1\n\\1-grams:\n-1 <s> 1 2\n\\end\\\n", "bad.arpa:4: a 1-gram line needs"},
		{"no bos", "\\data\\\nngram 1=1\n\\1-grams:\n-1 a\n\\end\\\n", "no <s> unigram"},
		{"order", "\\data\\\nngram 1=1\nngram 2=1\n\\2-grams:\n-1 a b\n\\end\\\n", "out of order"},
	} {
		_, _, err := ArpaToFst(strings.NewReader(tc.text), "bad.arpa", nil, DefaultArpaOptions(), nil)
		if err == nil || !errors.Is(err, ErrArpa) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func FuzzArpaToFst(f *testing.F) {
	f.Add([]byte(bigramArpa))
	f.Add([]byte("\\data\\\nngram 1=2\n\\1-grams:\n-1 <s>\n-1 </s>\n\\end\\\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		opt := DefaultArpaOptions()
		opt.DisambigSymbol = "#0"
		g, _, err := ArpaToFst(strings.NewReader(string(b)), "fuzz.arpa", nil, opt, nil)
		if err != nil {
			if !errors.Is(err, ErrArpa) {
				t.Fatalf("error does not wrap ErrArpa: %v", err)
			}
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
	})
}
