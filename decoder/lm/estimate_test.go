package lm

import (
	"errors"
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"
)

// countSentences counts sentences (space-separated words) with an open
// vocabulary.
func countSentences(t *testing.T, order int, sents ...string) *Counts {
	t.Helper()
	c, err := NewCounts(NewVocab("", false), order, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range sents {
		c.AddSentence(strings.Fields(s))
	}
	return c
}

func estimate(t *testing.T, c *Counts, opt Options) (*Model, []Discounts) {
	t.Helper()
	m, d, err := c.Estimate(opt)
	if err != nil {
		t.Fatal(err)
	}
	return m, d
}

type ngramWant struct {
	ngram string  // words, space-separated
	prob  float64 // probability (not log)
	bow   float64 // back-off weight (not log); 0: none expected
}

func checkNgrams(t *testing.T, m *Model, want []ngramWant) {
	t.Helper()
	for _, w := range want {
		lp, lb, ok := m.Ngram(strings.Fields(w.ngram)...)
		if !ok {
			t.Errorf("%q: no probability in the model", w.ngram)
			continue
		}
		wantLP := math.Log10(w.prob)
		if w.prob == 0 {
			wantLP = LogZero
		}
		if math.Abs(lp-wantLP) > 1e-6 && !(math.IsInf(lp, -1) && math.IsInf(wantLP, -1)) {
			t.Errorf("%q: log10 p = %.8f, hand-computed %.8f (p = %.8f)", w.ngram, lp, wantLP, w.prob)
		}
		if w.bow != 0 && math.Abs(lb-math.Log10(w.bow)) > 1e-6 {
			t.Errorf("%q: log10 bow = %.8f, hand-computed %.8f (bow = %.8f)", w.ngram, lb, math.Log10(w.bow), w.bow)
		}
	}
}

// The toy bigram model, every value computed by hand:
//
//	a a a a / b c b c / a / a a b b
//
// Unigrams use continuation counts c'(w) = |{v : c(v w) > 0}|:
// c'(a) = |{<s>, a}| = 2, c'(b) = |{<s>, c, a, b}| = 4, c'(c) = |{b}| = 1,
// c'(</s>) = |{a, c, b}| = 3; total T = 10. Count-of-counts n1..n4 = 1, 1, 1, 1,
// so Y = n1/(n1+2 n2) = 1/3, D1 = 1 - 2Y n2/n1 = 1/3, D2 = 2 - 3Y n3/n2 = 1,
// D3+ = 3 - 4Y n4/n3 = 5/3. The vocabulary has V = 4 events (a b c </s>;
// <s> is not one). Interpolation weight λ = (D1·1 + D2·1 + D3+·2)/T = 7/15
// (one word with c' = 1, one with 2, two with 3 or more), times 1/V:
//
//	p(a)    = (2 - 1)/10   + 7/60 = 13/60
//	p(b)    = (4 - 5/3)/10 + 7/60 = 21/60
//	p(c)    = (1 - 1/3)/10 + 7/60 = 11/60
//	p(</s>) = (3 - 5/3)/10 + 7/60 = 15/60   (sum 60/60)
//
// Bigrams use raw counts: <s>a 3, <s>b 1, aa 4, a</s> 2, ab 1, bc 2, bb 1,
// b</s> 1, cb 1, c</s> 1: n1..n4 = 6, 2, 1, 1, Y = 3/5, D1 = 3/5,
// D2 = 11/10, D3+ = 3/5. Per context h, λ(h) = (D1 n1(h) + D2 n2(h) +
// D3+ n3+(h))/T(h) and p(w|h) = (c(hw) - D)/T(h) + λ(h) p(w); the back-off
// weight (1 - Σ p(w|h))/(1 - Σ p(w)) over the seen w equals λ(h):
//
//	<s> (a 3, b 1; T 4):  λ = (3/5 + 3/5)/4 = 3/10
//	  p(a|<s>) = 12/5/4 + 3/10·13/60 = 399/600   p(b|<s>) = 2/5/4 + 3/10·21/60 = 123/600
//	a (a 4, </s> 2, b 1; T 7):  λ = (3/5 + 11/10 + 3/5)/7 = 23/70
//	  p(a|a) = 17/5/7 + 23/70·13/60 = 2339/4200   p(</s>|a) = 9/10/7 + 23/70·15/60 = 885/4200
//	  p(b|a) = 2/5/7 + 23/70·21/60 = 723/4200
//	b (c 2, b 1, </s> 1; T 4):  λ = (2·3/5 + 11/10)/4 = 23/40
//	  p(c|b) = 9/10/4 + 23/40·11/60 = 793/2400   p(b|b) = 2/5/4 + 23/40·21/60 = 723/2400
//	  p(</s>|b) = 2/5/4 + 23/40·15/60 = 585/2400
//	c (b 1, </s> 1; T 2):  λ = 2·3/5/2 = 3/5
//	  p(b|c) = 2/5/2 + 3/5·21/60 = 123/300   p(</s>|c) = 2/5/2 + 3/5·15/60 = 7/20
//
// <s> gets probability 0 (written -99) and a back-off weight.
var toyBigram = []string{"a a a a", "b c b c", "a", "a a b b"}

func TestToyBigramByHand(t *testing.T) {
	m, d := estimate(t, countSentences(t, 2, toyBigram...), Options{Interpolate: true})
	wantD := []Discounts{
		{N1: 1, N2: 1, N3: 1, N4: 1, D1: 1.0 / 3, D2: 1, D3: 5.0 / 3},
		{N1: 6, N2: 2, N3: 1, N4: 1, D1: 3.0 / 5, D2: 11.0 / 10, D3: 3.0 / 5},
	}
	for k, w := range wantD {
		g := d[k]
		if g.N1 != w.N1 || g.N2 != w.N2 || g.N3 != w.N3 || g.N4 != w.N4 ||
			math.Abs(g.D1-w.D1) > 1e-12 || math.Abs(g.D2-w.D2) > 1e-12 || math.Abs(g.D3-w.D3) > 1e-12 {
			t.Errorf("order %d discounts %+v, hand-computed %+v", k+1, g, w)
		}
	}
	checkNgrams(t, m, []ngramWant{
		{"a", 13.0 / 60, 23.0 / 70}, {"b", 21.0 / 60, 23.0 / 40}, {"c", 11.0 / 60, 3.0 / 5},
		{"</s>", 15.0 / 60, 0}, {"<s>", 0, 3.0 / 10},
		{"<s> a", 399.0 / 600, 0}, {"<s> b", 123.0 / 600, 0},
		{"a a", 2339.0 / 4200, 0}, {"a </s>", 885.0 / 4200, 0}, {"a b", 723.0 / 4200, 0},
		{"b c", 793.0 / 2400, 0}, {"b b", 723.0 / 2400, 0}, {"b </s>", 585.0 / 2400, 0},
		{"c b", 123.0 / 300, 0}, {"c </s>", 7.0 / 20, 0},
	})
	if n1, n2 := m.NumNgrams(1), m.NumNgrams(2); n1 != 5 || n2 != 10 {
		t.Errorf("%d unigrams and %d bigrams, want 5 (<s> included) and 10", n1, n2)
	}
	// Unseen bigrams back off: p(c|<s>) = bow(<s>) p(c) = 3/10 · 11/60.
	if got, want := m.Prob("c", "<s>"), math.Log10(3.0/10*11.0/60); math.Abs(got-want) > 1e-6 {
		t.Errorf("p(c|<s>) = %.8f, hand-computed %.8f", got, want)
	}
	// Without -interpolate the seen bigrams keep only their discounted
	// mass: p(a|<s>) = (3 - 3/5)/4 = 3/5, and the rest backs off:
	// bow(<s>) = (1 - 3/5 - (1-3/5)/4)/(1 - 13/60 - 21/60) = (3/10)/(26/60) = 9/13.
	mb, _ := estimate(t, countSentences(t, 2, toyBigram...), Options{})
	checkNgrams(t, mb, []ngramWant{{"<s> a", 3.0 / 5, 0}, {"<s> b", 1.0 / 10, 0}, {"<s>", 0, 9.0 / 13}})
}

// The toy trigram model with SRILM's default cutoffs (-gt3min 2: trigrams
// seen once get no probability of their own):
//
//	b b b a b / b b c a a / b b a a / b b b a / a b b
//
// Unigram continuation counts: c'(a) = |{<s>, b, c, a}| = 4, c'(b) = |{<s>,
// b, a}| = 3, c'(c) = 1, c'(</s>) = |{b, a}| = 2; T = 10, n1..n4 = 1, 1, 1, 1,
// D = 1/3, 1, 5/3, λ = 7/15 as in the bigram toy:
//
//	p(a) = (4 - 5/3)/10 + 7/60 = 21/60    p(b) = (3 - 5/3)/10 + 7/60 = 15/60
//	p(c) = (1 - 1/3)/10 + 7/60 = 11/60    p(</s>) = (2 - 1)/10 + 7/60 = 13/60
//
// Bigrams use continuation counts, c'(v w) = |{u : c(u v w) > 0}|, except
// those starting with <s>, which keep their raw counts (nothing precedes
// <s>): <s>a 1, <s>b 4 (raw); ab 2 ({<s>, b}), bb 3 ({<s>, b, a}), ba 1, bc 1,
// b</s> 2, aa 2, a</s> 2, ca 1. n1..n4 = 4, 4, 1, 1: Y = 1/3, D1 = 1/3,
// D2 = 7/4, D3+ = 5/3.
//
//	<s> (a 1, b 4; T 5): λ = (1/3 + 5/3)/5 = 2/5
//	  p(b|<s>) = (4 - 5/3)/5 + 2/5·15/60 = 17/30    p(a|<s>) = (2/3)/5 + 2/5·21/60 = 41/150
//	b (</s> 2, a 1, b 3, c 1; T 7): λ = (2·1/3 + 7/4 + 5/3)/7 = 7/12
//	  p(b|b) = (4/3)/7 + 7/12·15/60 = 113/336      p(a|b) = (2/3)/7 + 7/12·21/60 = 503/1680
//	  p(</s>|b) = (1/4)/7 + 7/12·13/60 = 817/5040  p(c|b) = (2/3)/7 + 7/12·11/60 = 1019/5040
//	a (</s> 2, a 2, b 2; T 6): λ = 3·7/4/6 = 7/8
//	  p(</s>|a) = (1/4)/6 + 7/8·13/60 = 111/480    p(a|a) = (1/4)/6 + 7/8·21/60 = 167/480
//
// All four events follow b, so the unigrams get no mass from it: bow(b) = 1.
//
// Trigrams use raw counts: <s>bb 4, bba 3, bbb 2, aa</s> 2, ten more once:
// n1..n4 = 10, 2, 1, 1, Y = 5/7, D1 = 5/7, D2 = 13/14, D3+ = 1/7. The
// discounts and weights count the cut trigrams too:
//
//	b b (</s> 1, a 3, b 2, c 1; T 7): λ = (2·5/7 + 13/14 + 1/7)/7 = 5/14
//	  p(a|b b) = (3 - 1/7)/7 + 5/14·503/1680 = 2423/4704
//	  p(b|b b) = (2 - 13/14)/7 + 5/14·113/336 = 1285/4704
//	  p(</s>|b b), p(c|b b): cut (count 1 < 2)
//	  bow(b b) = (1 - 2423/4704 - 1285/4704)/(1 - 503/1680 - 113/336) = 415/714
//	  so p(</s>|b b) = 415/714 · 817/5040 = 67811/719712 by back-off
//	a a (</s> 2; T 2): λ = 13/14/2 = 13/28
//	  p(</s>|a a) = (2 - 13/14)/2 + 13/28·111/480 = 8643/13440, bow(a a) = 13/28
var toyTrigram = []string{"b b b a b", "b b c a a", "b b a a", "b b b a", "a b b"}

func TestToyTrigramByHand(t *testing.T) {
	c := countSentences(t, 3, toyTrigram...)
	if got := c.Count("<s>", "b", "b"); got != 4 {
		t.Errorf("count(<s> b b) = %d, want 4", got)
	}
	m, d := estimate(t, c, Options{Interpolate: true})
	wantD := []Discounts{
		{N1: 1, N2: 1, N3: 1, N4: 1, D1: 1.0 / 3, D2: 1, D3: 5.0 / 3},
		{N1: 4, N2: 4, N3: 1, N4: 1, D1: 1.0 / 3, D2: 7.0 / 4, D3: 5.0 / 3},
		{N1: 10, N2: 2, N3: 1, N4: 1, D1: 5.0 / 7, D2: 13.0 / 14, D3: 1.0 / 7},
	}
	for k, w := range wantD {
		g := d[k]
		if g.N1 != w.N1 || g.N2 != w.N2 || g.N3 != w.N3 || g.N4 != w.N4 ||
			math.Abs(g.D1-w.D1) > 1e-12 || math.Abs(g.D2-w.D2) > 1e-12 || math.Abs(g.D3-w.D3) > 1e-12 {
			t.Errorf("order %d discounts %+v, hand-computed %+v", k+1, g, w)
		}
	}
	checkNgrams(t, m, []ngramWant{
		{"a", 21.0 / 60, 0}, {"b", 15.0 / 60, 1}, {"c", 11.0 / 60, 0}, {"</s>", 13.0 / 60, 0},
		{"<s> b", 17.0 / 30, 0}, {"<s> a", 41.0 / 150, 0},
		{"b b", 113.0 / 336, 415.0 / 714}, {"b a", 503.0 / 1680, 0}, {"b </s>", 817.0 / 5040, 0},
		{"b c", 1019.0 / 5040, 0}, {"a </s>", 111.0 / 480, 0},
		{"b b a", 2423.0 / 4704, 0}, {"b b b", 1285.0 / 4704, 0},
		{"a a", 167.0 / 480, 13.0 / 28}, {"a a </s>", 8643.0 / 13440, 0},
	})
	for _, cut := range []string{"b b </s>", "b b c", "<s> a b", "b a b"} {
		if _, _, ok := m.Ngram(strings.Fields(cut)...); ok {
			t.Errorf("%q was seen once: -gt3min 2 should leave it no probability of its own", cut)
		}
	}
	if got, want := m.Prob("</s>", "b", "b"), math.Log10(67811.0/719712); math.Abs(got-want) > 1e-6 {
		t.Errorf("p(</s>|b b) = %.8f, hand-computed %.8f", got, want)
	}
	if n := m.NumNgrams(3); n != 4 {
		t.Errorf("%d trigrams, want the 4 seen at least twice", n)
	}
}

// refKN is a direct implementation of interpolated modified Kneser–Ney as
// Chen & Goodman write it, recursively over the history, with SRILM's
// choices (raw counts at the top order and for n-grams starting with <s>,
// the uniform distribution over the events at the bottom). Without cutoffs
// an ARPA back-off model must give exactly these probabilities.
type refKN struct {
	n      int
	counts map[string]float64    // the count used at the n-gram's order
	ctx    map[string][4]float64 // per context: total, and how many follow 1, 2, 3+ times
	follow map[string][]string   // per context, the words seen after it
	disc   [][3]float64
	nEvent float64
}

func newRefKN(sents []string, n int) *refKN {
	raw := map[string]float64{}
	for _, s := range sents {
		w := append(append([]string{BOS}, strings.Fields(s)...), EOS)
		for i := range w {
			for k := 1; k <= n && i+k <= len(w); k++ {
				raw[strings.Join(w[i:i+k], " ")]++
			}
		}
	}
	r := &refKN{n: n, counts: map[string]float64{}, ctx: map[string][4]float64{}, follow: map[string][]string{}}
	words := map[string]bool{}
	for g, c := range raw {
		f := strings.Fields(g)
		if len(f) == 1 && f[0] != BOS {
			words[f[0]] = true
		}
		if len(f) == n || f[0] == BOS {
			r.counts[g] = c // raw counts
		}
	}
	for g := range raw {
		// Every n-gram v w.. adds one to the continuation count of w..
		if f := strings.Fields(g); len(f) >= 2 && f[1] != BOS {
			r.counts[strings.Join(f[1:], " ")]++
		}
	}
	r.nEvent = float64(len(words))
	nc := make([][5]float64, n)
	for g, c := range r.counts {
		f := strings.Fields(g)
		if f[len(f)-1] == BOS {
			continue
		}
		if c <= 4 {
			nc[len(f)-1][int(c)]++
		}
		h := strings.Join(f[:len(f)-1], " ")
		a := r.ctx[h]
		a[0] += c
		a[min(int(c), 3)]++
		r.ctx[h] = a
		r.follow[h] = append(r.follow[h], f[len(f)-1])
	}
	for _, c := range nc {
		y := c[1] / (c[1] + 2*c[2])
		r.disc = append(r.disc, [3]float64{1 - 2*y*c[2]/c[1], 2 - 3*y*c[3]/c[2], 3 - 4*y*c[4]/c[3]})
	}
	return r
}

func (r *refKN) prob(w string, hist []string) float64 {
	if len(hist) > r.n-1 {
		hist = hist[len(hist)-(r.n-1):]
	}
	lower := 1 / r.nEvent
	if len(hist) > 0 {
		lower = r.prob(w, hist[1:])
	}
	prefix := strings.Join(hist, " ")
	a, seen := r.ctx[prefix]
	if !seen {
		return lower
	}
	d := r.disc[len(hist)]
	gamma := (d[0]*a[1] + d[1]*a[2] + d[2]*a[3]) / a[0]
	p := 0.0
	if c := r.counts[strings.TrimSpace(prefix+" "+w)]; c > 0 {
		p = (c - d[min(int(c), 3)-1]) / a[0]
	}
	return p + gamma*lower
}

// zipfCorpus makes sentences of words w0..w(n-1) drawn with probability
// proportional to 1/(rank+1), so that the counts (and continuation counts)
// 1 to 4 all occur at every order.
func zipfCorpus(seed int64, nWords, nSents int) ([]string, []string) {
	rng := rand.New(rand.NewSource(seed))
	vocab := make([]string, nWords)
	cum := make([]float64, nWords)
	total := 0.0
	for i := range vocab {
		vocab[i] = fmt.Sprintf("w%d", i)
		total += 1 / float64(i+1)
		cum[i] = total
	}
	sents := make([]string, nSents)
	for i := range sents {
		s := make([]string, 1+rng.Intn(8))
		for j := range s {
			x := rng.Float64() * total
			k := 0
			for cum[k] < x {
				k++
			}
			s[j] = vocab[k]
		}
		sents[i] = strings.Join(s, " ")
	}
	return vocab, sents
}

// Without cutoffs the back-off model reproduces the interpolated formula
// for every seen context (and random unseen ones) and every word, at
// orders 2 to 4.
func TestMatchesInterpolatedFormula(t *testing.T) {
	for _, order := range []int{2, 3, 4} {
		// Corpora big enough for n1..n4 > 0 and positive discounts at every order.
		size := map[int][3]int{2: {2, 300, 200}, 3: {3, 300, 300}, 4: {1, 100, 400}}[order]
		vocab, sents := zipfCorpus(int64(size[0]), size[1], size[2])
		c := countSentences(t, order, sents...)
		m, _ := estimate(t, c, Options{Interpolate: true, MinCount: []int64{1, 1, 1, 1}})
		ref := newRefKN(sents, order)
		var hists [][]string
		for h := range ref.ctx {
			hists = append(hists, strings.Fields(h))
		}
		rng := rand.New(rand.NewSource(1))
		for range 100 {
			h := []string{BOS}
			for range rng.Intn(order) {
				h = append(h, vocab[rng.Intn(len(vocab))])
			}
			hists = append(hists, h, h[1:])
		}
		checked := 0
		for _, h := range hists {
			// The words seen after h and a few others.
			ws := append([]string{EOS, vocab[rng.Intn(len(vocab))], vocab[rng.Intn(len(vocab))]}, ref.follow[strings.Join(h, " ")]...)
			for _, w := range ws {
				if _, seen := m.Vocab.ID(w); !seen {
					continue // an open vocabulary has only the words of the text
				}
				if r := ref.prob(w, h); r > 0 {
					got, want := m.Prob(w, h...), math.Log10(r)
					if math.Abs(got-want) > 1e-6 {
						t.Errorf("order %d: log10 p(%s | %s) = %.8f, formula %.8f", order, w, strings.Join(h, " "), got, want)
					}
					checked++
				}
			}
		}
		t.Logf("order %d: %d probabilities match the formula", order, checked)
	}
}

// Every history's distribution sums to 1, with and without cutoffs and
// interpolation: the back-off weights make the model proper.
func TestModelIsProper(t *testing.T) {
	vocab, sents := zipfCorpus(7, 300, 200)
	events := append(append([]string{}, vocab...), EOS)
	for _, opt := range []Options{{Interpolate: true}, {}, {Interpolate: true, MinCount: []int64{1, 2, 3}}} {
		m, _ := estimate(t, countSentences(t, 3, sents...), opt)
		for _, h := range [][]string{{BOS}, {BOS, "w0"}, {"w0", "w1"}, {"w0", "w0"}, {"w1"}, {}, {"w29", "w3"}, {"w2", "w0"}} {
			sum := 0.0
			for _, w := range events {
				sum += math.Pow(10, m.Prob(w, h...))
			}
			if math.Abs(sum-1) > 1e-5 {
				t.Errorf("%+v: probabilities after %q sum to %.8f", opt, strings.Join(h, " "), sum)
			}
		}
	}
}

// With a closed vocabulary (-vocab) words outside it are <unk>: without
// -unk it is no word of the model (no probability, no n-grams through it,
// its contexts skipped); with -unk it is an ordinary word. Vocabulary
// words never seen share the unigrams' left-over mass.
func TestClosedVocabulary(t *testing.T) {
	words, sents := zipfCorpus(5, 300, 200)
	list := strings.Join(words[:150], "\n") + "\n\nzz 7\n" // words.txt-style lines read as their first field
	for _, unkIsWord := range []bool{false, true} {
		v := NewVocab("", unkIsWord)
		if err := ReadVocab(strings.NewReader(list), "vocab", v); err != nil {
			t.Fatal(err)
		}
		c, err := NewCounts(v, 2, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range sents {
			c.AddSentence(strings.Fields(s))
		}
		if c.OOVs == 0 || c.Count("<unk>") != int64(c.OOVs) || c.Vocab.Len() != 3+151 {
			t.Fatalf("unk %v: %d OOVs, %d <unk>s, vocabulary %d", unkIsWord, c.OOVs, c.Count("<unk>"), c.Vocab.Len())
		}
		m, _ := estimate(t, c, Options{Interpolate: true})
		unkNgrams := 0
		for k := range m.Order {
			var buf []int32
			for id := range m.prob[k] {
				if !m.has(k, int32(id)) {
					continue
				}
				for _, w := range m.t.words(k, int32(id), buf) {
					if w == v.Unk() {
						unkNgrams++
					}
				}
			}
		}
		if (unkNgrams > 0) != unkIsWord {
			t.Errorf("unk %v: %d n-grams hold <unk>", unkIsWord, unkNgrams)
		}
		if lz, _, ok := m.Ngram("zz"); !ok || math.IsInf(lz, -1) {
			t.Errorf("unk %v: the unseen vocabulary word zz has no probability", unkIsWord)
		}
		sum := 0.0
		for id := range v.Len() {
			if lp, _, ok := m.Ngram(v.Word(int32(id))); ok {
				sum += math.Pow(10, lp)
			}
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("unk %v: unigrams sum to %.8f", unkIsWord, sum)
		}
	}
}

func TestEstimateBadInput(t *testing.T) {
	if _, err := NewCounts(NewVocab("", false), 0, true); !errors.Is(err, ErrInput) {
		t.Errorf("order 0: %v, want ErrInput", err)
	}
	empty, _ := NewCounts(NewVocab("", false), 3, true)
	if err := empty.CountText(strings.NewReader("\n  \n"), "empty.txt"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := empty.Estimate(Options{}); !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "no sentences") {
		t.Errorf("empty text: %v", err)
	}
	// Too little text for order 3: no trigram is seen 3 or 4 times.
	small := countSentences(t, 3, "a b", "b a", "a a b")
	_, _, err := small.Estimate(Options{Interpolate: true})
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "count-of-counts is zero") {
		t.Errorf("tiny text: %v, want the count-of-counts error", err)
	}
}

// Witten–Bell (-wbdiscount -interpolate) on the bigram toy, raw counts at
// both orders. Unigrams: a 7, b 4, c 2, </s> 4; N = 17, V = 4 events, so
// p(w) = n/21 + 4/21 · 1/4:
//
//	p(a) = 8/21   p(b) = 5/21   p(c) = 3/21   p(</s>) = 5/21
//
// A context with total N and V distinct words gives n/(N+V) plus
// V/(N+V) times the unigram, and V/(N+V) is its back-off weight:
//
//	<s> (a 3, b 1; N 4, V 2): p(a|<s>) = 3/6 + 2/6·8/21 = 79/126, p(b|<s>) = 31/126, bow 1/3
//	a (a 4, </s> 2, b 1; N 7, V 3): p(a|a) = 18/35, p(</s>|a) = 19/70, p(b|a) = 6/35, bow 3/10
//	b (c 2, b 1, </s> 1; N 4, V 3): p(c|b) = 2/7 + 3/7·3/21 = 17/49, p(b|b) = p(</s>|b) = 12/49, bow 3/7
//	c (b 1, </s> 1; N 2, V 2): p(b|c) = p(</s>|c) = 1/4 + 1/2·5/21 = 31/84, bow 1/2
func TestToyBigramWittenBellByHand(t *testing.T) {
	m, d := estimate(t, countSentences(t, 2, toyBigram...), Options{Interpolate: true, WittenBell: true})
	if d != nil {
		t.Errorf("Witten-Bell returned Kneser-Ney discounts %+v", d)
	}
	checkNgrams(t, m, []ngramWant{
		{"a", 8.0 / 21, 3.0 / 10}, {"b", 5.0 / 21, 3.0 / 7}, {"c", 3.0 / 21, 1.0 / 2},
		{"</s>", 5.0 / 21, 0}, {"<s>", 0, 1.0 / 3},
		{"<s> a", 79.0 / 126, 0}, {"<s> b", 31.0 / 126, 0},
		{"a a", 18.0 / 35, 0}, {"a </s>", 19.0 / 70, 0}, {"a b", 6.0 / 35, 0},
		{"b c", 17.0 / 49, 0}, {"b b", 12.0 / 49, 0}, {"b </s>", 12.0 / 49, 0},
		{"c b", 31.0 / 84, 0}, {"c </s>", 31.0 / 84, 0},
	})
	if got, want := m.Prob("c", "<s>"), math.Log10(1.0/3*3.0/21); math.Abs(got-want) > 1e-6 {
		t.Errorf("p(c|<s>) = %.8f, hand-computed %.8f", got, want)
	}
}

// A digit-string text is beyond modified Kneser–Ney (every digit follows
// more than four others, so no unigram has a continuation count of 1 to 4;
// SRILM stops too) and within Witten–Bell, whose trigram model is proper.
func TestWittenBellWhereKneserNeyCannot(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	digits := strings.Fields("zero one two three four five six seven eight nine oh")
	var sents []string
	for range 160 {
		var s []string
		for range 1 + rng.Intn(7) {
			s = append(s, digits[rng.Intn(len(digits))])
		}
		sents = append(sents, strings.Join(s, " "))
	}
	if _, _, err := countSentences(t, 3, sents...).Estimate(Options{Interpolate: true}); err == nil {
		t.Fatal("modified Kneser-Ney estimated digit strings: want the count-of-counts error")
	}
	m, _ := estimate(t, countSentences(t, 3, sents...), Options{Interpolate: true, WittenBell: true})
	for _, h := range [][]string{{BOS}, {BOS, "one"}, {"two", "three"}, {"oh"}, {}} {
		sum := 0.0
		for _, w := range append(digits, EOS) {
			sum += math.Pow(10, m.Prob(w, h...))
		}
		if math.Abs(sum-1) > 1e-5 {
			t.Errorf("probabilities after %q sum to %.8f", strings.Join(h, " "), sum)
		}
	}
}
