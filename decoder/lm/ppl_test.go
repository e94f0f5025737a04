package lm

import (
	"bytes"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// Perplexity of "a b" and "c d" under the toy bigram model (estimate_test.go),
// by hand:
//
//	p(a|<s>)  = 399/600 = 0.665                   (explicit)
//	p(b|a)    = 723/4200                          (explicit)
//	p(</s>|b) = 585/2400                          (explicit)
//	p(c|<s>)  = bow(<s>) p(c) = 3/10 · 11/60 = 0.055   (backed off)
//	p(d|c)    = 0: d is not in the model, an OOV (counted, not scored)
//	p(</s>|d) = p(</s>) = 15/60: the context <unk> is not in the model
//
// logprob = log10(0.665 · 723/4200 · 585/2400 · 0.055 · 0.25) = -3.4160420;
// 2 sentences, 4 words, 1 OOV: ppl = 10^(3.4160420/(4 - 1 + 2)) = 4.8217913,
// ppl1 = 10^(3.4160420/(4 - 1)) = 13.761972.
func TestPerplexityByHand(t *testing.T) {
	m, _ := estimate(t, countSentences(t, 2, toyBigram...), Options{Interpolate: true})
	var out bytes.Buffer
	st, err := m.Perplexity(strings.NewReader("a b\n\n c  d \n"), "test.txt", 0, &out)
	if err != nil {
		t.Fatal(err)
	}
	want := TextStats{Sentences: 2, Words: 4, OOVs: 1}
	lp := math.Log10(0.665 * 723 / 4200 * 585 / 2400 * 0.055 * 0.25)
	if st.Sentences != want.Sentences || st.Words != want.Words || st.OOVs != want.OOVs || st.ZeroProbs != 0 ||
		math.Abs(st.LogProb-lp) > 1e-6 || math.Abs(lp+3.4160420) > 1e-7 {
		t.Errorf("stats %+v, hand-computed logprob %.7f", st, lp)
	}
	if math.Abs(st.PPL()-4.8217913) > 1e-5 || math.Abs(st.PPL1()-13.761972) > 1e-4 {
		t.Errorf("ppl %.7f ppl1 %.7f, hand-computed 4.8217913 and 13.761972", st.PPL(), st.PPL1())
	}
	if out.Len() != 0 {
		t.Errorf("debug 0 printed %q", out.String())
	}
}

// SRILM's lines, formatted as its TextStats operator<< (precision 7).
func TestTextStatsFormat(t *testing.T) {
	for _, tc := range []struct {
		st   TextStats
		want string
	}{
		{TextStats{Sentences: 2, Words: 4, OOVs: 1, LogProb: -3.416042025263409},
			"2 sentences, 4 words, 1 OOVs\n0 zeroprobs, logprob= -3.416042 ppl= 4.821791 ppl1= 13.76197\n"},
		{TextStats{Sentences: 2500, Words: 15849, OOVs: 3, ZeroProbs: 1, LogProb: -31234.56789},
			"2500 sentences, 15849 words, 3 OOVs\n1 zeroprobs, logprob= -31234.57 ppl= 50.42202 ppl1= 93.59595\n"},
		{TextStats{Sentences: 1, Words: 1, OOVs: 1}, // only </s> scored
			"1 sentences, 1 words, 1 OOVs\n0 zeroprobs, logprob= 0 ppl= 1 ppl1= undefined\n"},
		{TextStats{}, "0 sentences, 0 words, 0 OOVs\n"},
		{TextStats{Sentences: 1, Words: 2, LogProb: -1234567.8}, "1 sentences, 2 words, 0 OOVs\n0 zeroprobs, logprob= -1234568 ppl= inf ppl1= inf\n"},
	} {
		if got := tc.st.String(); got != tc.want {
			t.Errorf("%+v:\n%q\nwant\n%q", tc.st, got, tc.want)
		}
	}
}

// -debug 1 prints each sentence, its statistics and a blank line; -debug 2
// adds a line per word, as SRILM's pplFile and sentenceProb.
func TestPerplexityDebugOutput(t *testing.T) {
	m, _ := estimate(t, countSentences(t, 2, toyBigram...), Options{Interpolate: true})
	var out bytes.Buffer
	if _, err := m.Perplexity(strings.NewReader("a b\nc d\n"), "test.txt", 2, &out); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out.String(), "\n")
	word := regexp.MustCompile(`^\tp\( (\S+) \| (\S+) (\.\.\.)?\) \t= (\[\dgram\]|\[OOV\]) (\S+) \[ (\S+) \]$`)
	type wl struct {
		w, ctx, hit string
		p           float64
	}
	want := []any{
		"a b",
		wl{"a", "<s>", "[2gram]", 0.665}, wl{"b", "a", "[2gram]", 723.0 / 4200}, wl{"</s>", "b", "[2gram]", 585.0 / 2400},
		"1 sentences, 2 words, 0 OOVs", "", "",
		"c d",
		wl{"c", "<s>", "[1gram]", 0.055}, wl{"<unk>", "c", "[OOV]", 0}, wl{"</s>", "<unk>", "[1gram]", 0.25},
		"1 sentences, 2 words, 1 OOVs", "", "",
	}
	if len(lines) != len(want)+1 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), len(want)+1, out.String())
	}
	for i, w := range want {
		switch w := w.(type) {
		case string:
			if w == "" && strings.HasPrefix(lines[i], "0 zeroprobs") {
				continue // the numbers are checked by TestPerplexityByHand
			}
			if lines[i] != w {
				t.Errorf("line %d: %q, want %q", i+1, lines[i], w)
			}
		case wl:
			g := word.FindStringSubmatch(lines[i])
			if g == nil {
				t.Errorf("line %d: %q is not SRILM's word line", i+1, lines[i])
				continue
			}
			p, _ := strconv.ParseFloat(g[5], 64)
			lp, _ := strconv.ParseFloat(g[6], 64)
			more := i != 1 && i != 8 // the first word of each sentence has only <s> before it
			if g[1] != w.w || g[2] != w.ctx || (g[3] != "") != more || g[4] != w.hit || math.Abs(p-w.p) > 1e-6 ||
				(w.p > 0 && math.Abs(lp-math.Log10(w.p)) > 1e-6) || (w.p == 0 && g[6] != "-inf") {
				t.Errorf("line %d: %q, want p( %s | %s ) %s %g", i+1, lines[i], w.w, w.ctx, w.hit, w.p)
			}
		}
	}
}

// The left-to-right walk of SentenceProb gives WordProb's probabilities.
func TestScoreNextMatchesWordProb(t *testing.T) {
	vocab, sents := zipfCorpus(3, 300, 300)
	for _, order := range []int{1, 2, 3} {
		m, _ := estimate(t, countSentences(t, order, sents...), Options{Interpolate: true})
		for i, s := range append(sents[:40], vocab[5]+" "+vocab[290]+" "+vocab[3]+" "+vocab[3]) {
			words := strings.Fields(s)
			var b bytes.Buffer
			st := m.SentenceProb(words, 2, &b)
			want := 0.0
			hist := []int32{m.Vocab.BOS()}
			for _, w := range append(words, EOS) {
				id := m.Vocab.Index(w)
				if lp, _ := m.WordProb(id, hist); !math.IsInf(lp, -1) {
					want += lp
				}
				hist = append(hist, id)
			}
			if math.Abs(st.LogProb-want) > 1e-9 {
				t.Errorf("order %d, sentence %d: %.9f, WordProb gives %.9f\n%s", order, i, st.LogProb, want, b.String())
			}
		}
	}
}
