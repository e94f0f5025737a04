package lm

import (
	"bytes"
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/mkgraph"
)

// The toy bigram model (estimate_test.go) as SRILM writes it: a blank line,
// the header, n-grams sorted by context then word (byte order: "</s>" <
// "<s>" < "a"), -99 for <s>, back-off weights on the contexts, each value
// log10 of the hand-computed fraction to 7 significant digits.
const toyBigramARPA = `
\data\
ngram 1=5
ngram 2=10

\1-grams:
-0.60206	</s>
-99	<s>	-0.5228788
-0.6642079	a	-0.4833705
-0.455932	b	-0.2403322
-0.7367586	c	-0.2218488

\2-grams:
-0.1771784	<s> a
-0.6882461	<s> b
-0.676306	a </s>
-0.2542191	a a
-0.764111	a b
-0.6130554	b </s>
-0.5210729	b b
-0.4809381	b c
-0.455932	c </s>
-0.3872162	c b

\end\
`

func arpaText(t *testing.T, m *Model) string {
	t.Helper()
	var b bytes.Buffer
	if err := m.WriteARPA(&b); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func TestWriteARPA(t *testing.T) {
	m, _ := estimate(t, countSentences(t, 2, toyBigram...), Options{Interpolate: true})
	if got := arpaText(t, m); got != toyBigramARPA {
		t.Errorf("ARPA file:\n%s\nwant:\n%s", got, toyBigramARPA)
	}
}

// Written, read back and written again, a model is the same file and gives
// the same probabilities.
func TestARPARoundTrip(t *testing.T) {
	_, sents := zipfCorpus(3, 300, 300)
	for _, order := range []int{1, 2, 3} {
		c := countSentences(t, order, sents...)
		m, _ := estimate(t, c, Options{Interpolate: true})
		text := arpaText(t, m)
		back, err := ReadARPA(strings.NewReader(text), "lm.arpa", ReadOptions{Warn: func(s string) { t.Error(s) }})
		if err != nil {
			t.Fatal(err)
		}
		if again := arpaText(t, back); again != text {
			t.Errorf("order %d: the file read back writes differently", order)
		}
		for _, s := range sents[:50] {
			w := strings.Fields(s)
			var a, b TextStats
			a.Add(m.SentenceProb(w, 0, nil))
			b.Add(back.SentenceProb(w, 0, nil))
			if math.Abs(a.LogProb-b.LogProb) > 1e-5 {
				t.Errorf("order %d: %q: log10 p %.7f, read back %.7f", order, s, a.LogProb, b.LogProb)
			}
		}
	}
}

// ARPA files we write compile with arpa2fst (decoder/mkgraph), and the
// grammar FST gives each sentence the cost -ln p of the model: walking G
// with failure semantics (the word's arc if the state has one, else the
// back-off arc) reproduces the back-off rule.
func TestARPAThroughArpa2Fst(t *testing.T) {
	vocab, sents := zipfCorpus(3, 300, 300)
	c := countSentences(t, 3, sents...)
	m, _ := estimate(t, c, Options{Interpolate: true})
	opt := mkgraph.DefaultArpaOptions()
	opt.DisambigSymbol = "#0"
	g, syms, err := mkgraph.ArpaToFst(strings.NewReader(arpaText(t, m)), "lm.arpa", nil, opt, func(w string) { t.Error(w) })
	if err != nil {
		t.Fatal(err)
	}
	if err := g.Validate(); err != nil {
		t.Fatal(err)
	}
	back, _ := syms.Key("#0")
	label := func(w string) fst.Label {
		k, ok := syms.Key(w)
		if !ok {
			t.Fatalf("%q is not in G's symbol table", w)
		}
		return fst.Label(k)
	}
	// cost walks G from the start state; ok is false when a word cannot be read.
	cost := func(words []string) (float64, bool) {
		s := g.Start
		total := 0.0
		for i := 0; i <= len(words); i++ {
			for {
				st := g.States[s]
				if i == len(words) {
					if g.IsFinal(s) {
						total += float64(st.Final)
						break
					}
				} else if a, ok := findArc(st.Arcs, label(words[i])); ok {
					total += float64(a.Weight)
					s = a.NextState
					break
				}
				a, ok := findArc(st.Arcs, fst.Label(back))
				if !ok {
					if a, ok = findArc(st.Arcs, 0); !ok {
						return 0, false
					}
				}
				total += float64(a.Weight)
				s = a.NextState
			}
		}
		return total, true
	}
	var tests [][]string
	for _, s := range sents[:100] {
		tests = append(tests, strings.Fields(s))
	}
	for i := range 50 { // unseen word sequences back off
		tests = append(tests, []string{vocab[i%7], vocab[(i*13)%11], vocab[i%5]})
	}
	checked := 0
	for _, w := range tests {
		st := m.SentenceProb(w, 0, nil)
		if st.OOVs > 0 {
			continue // G has no arcs for words outside the model
		}
		checked++
		want := -st.LogProb * math.Ln10
		got, ok := cost(w)
		if !ok {
			t.Errorf("%q: G cannot read it", strings.Join(w, " "))
			continue
		}
		if math.Abs(got-want) > 1e-4*math.Max(1, want) {
			t.Errorf("%q: G's cost %.6f, model's -ln p %.6f", strings.Join(w, " "), got, want)
		}
	}
	if checked < 120 {
		t.Errorf("only %d sentences without OOVs checked", checked)
	}
}

func findArc(arcs []fst.Arc, l fst.Label) (fst.Arc, bool) {
	for _, a := range arcs {
		if a.ILabel == l {
			return a, true
		}
	}
	return fst.Arc{}, false
}

// -order limits the orders read: the higher sections are skipped.
func TestReadARPAOrder(t *testing.T) {
	m, _ := estimate(t, countSentences(t, 3, toyTrigram...), Options{Interpolate: true})
	m2, err := ReadARPA(strings.NewReader(arpaText(t, m)), "lm.arpa", ReadOptions{Order: 2})
	if err != nil {
		t.Fatal(err)
	}
	if m2.Order != 2 || m2.NumNgrams(3) != 0 || m2.NumNgrams(2) != m.NumNgrams(2) {
		t.Errorf("read with order 2: order %d, %d trigrams, %d bigrams (want 2, 0, %d)", m2.Order, m2.NumNgrams(3), m2.NumNgrams(2), m.NumNgrams(2))
	}
	// p(a|b b) by bigrams only: p(a|b) = 503/1680 (estimate_test.go).
	if got, want := m2.Prob("a", "b", "b"), math.Log10(503.0/1680); math.Abs(got-want) > 1e-6 {
		t.Errorf("p(a|b b) with order 2 = %.8f, want p(a|b) = %.8f", got, want)
	}
}

// Names ending in .gz are written and read gzip-compressed, atomically.
func TestGzipFiles(t *testing.T) {
	m, _ := estimate(t, countSentences(t, 2, toyBigram...), Options{Interpolate: true})
	path := filepath.Join(t.TempDir(), "lm.arpa.gz")
	if err := WriteFile(path, m.WriteARPA); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if len(raw) < 2 || raw[0] != 0x1f || raw[1] != 0x8b {
		t.Fatalf("%s is not gzip", path)
	}
	f, err := OpenFile(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	text, _ := io.ReadAll(f)
	if string(text) != toyBigramARPA {
		t.Errorf("read back:\n%s", text)
	}
	if entries, _ := os.ReadDir(filepath.Dir(path)); len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
}

func TestReadARPABadInput(t *testing.T) {
	const head = "\\data\\\nngram 1=2\nngram 2=1\n\n\\1-grams:\n-1 </s>\n-99 <s> -0.5\n"
	for _, tc := range []struct{ name, text, want string }{
		{"empty", "", `lm.arpa:0: no \data\ section`},
		{"no end", head, `lm.arpa:7: reached EOF before \end\`},
		{"bad count", "\\data\\\nngram one=2\n", `lm.arpa:2: expected "ngram 1=COUNT"`},
		{"section not declared", "\\data\\\nngram 1=1\n\\2-grams:\n", `lm.arpa:3: invalid ngram order`},
		{"fields", head + "\\2-grams:\n-0.5 <s>\n", `lm.arpa:9: a 2-gram line needs 3 or 4 fields, got 2`},
		{"bad prob", head + "\\2-grams:\nx <s> </s>\n", `lm.arpa:9: bad log-probability "x"`},
		{"positive prob", head + "\\2-grams:\n0.5 <s> </s>\n", `lm.arpa:9: bad log-probability "0.5"`},
		{"bad bow", "\\data\\\nngram 1=1\n\\1-grams:\n-1 a nan\n", `lm.arpa:4: bad back-off weight "nan"`},
		{"end first", "\\data\\\nngram 1=1\n\\end\\\n", `lm.arpa:3: \end\ before any n-gram section`},
	} {
		_, err := ReadARPA(strings.NewReader(tc.text), "lm.arpa", ReadOptions{})
		if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
	}
	// An n-gram whose prefix is missing is skipped with a warning naming the line.
	var warned []string
	m, err := ReadARPA(strings.NewReader(head+"\\2-grams:\n-0.5 a b\n\\end\\\n"), "lm.arpa",
		ReadOptions{Warn: func(s string) { warned = append(warned, s) }})
	if err != nil || m.NumNgrams(2) != 0 || len(warned) == 0 || !strings.Contains(warned[0], "lm.arpa:9:") {
		t.Errorf("missing prefix: err %v, %d bigrams, warnings %q", err, m.NumNgrams(2), warned)
	}
}

// The ARPA reader never panics; what it accepts it writes and reads back.
func FuzzReadARPA(f *testing.F) {
	f.Add(toyBigramARPA)
	f.Add("\\data\\\nngram 1=2\nngram 2=1\n\\1-grams:\n-1 </s>\n-99 <s> -0.5\n\\2-grams:\n-0.5 <s> </s>\n\\end\\\n")
	f.Add("junk\n\\data\\\nngram 1=1\n\\1-grams:\n-inf a 0\n\\end\\\n")
	f.Fuzz(func(t *testing.T, text string) {
		m, err := ReadARPA(strings.NewReader(text), "fuzz.arpa", ReadOptions{})
		if err != nil {
			if !errors.Is(err, ErrInput) {
				t.Fatalf("error %v does not wrap ErrInput", err)
			}
			return
		}
		var b bytes.Buffer
		if err := m.WriteARPA(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadARPA(&b, "rewritten.arpa", ReadOptions{}); err != nil {
			t.Fatalf("rewritten file does not read back: %v\n%s", err, b.String())
		}
		m.SentenceProb([]string{"a", "b"}, 0, nil)
	})
}
