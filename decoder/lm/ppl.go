package lm

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// TextStats are SRILM's perplexity statistics of a text: sentences, words
// (not counting <s> and </s>), OOVs (words the model gives no probability,
// mapped to the unknown word), zero-probability in-vocabulary words, and
// the total log10 probability of the rest, </s> included.
type TextStats struct {
	Sentences, Words, OOVs, ZeroProbs int
	LogProb                           float64
}

// Add accumulates o into s.
func (s *TextStats) Add(o TextStats) {
	s.Sentences += o.Sentences
	s.Words += o.Words
	s.OOVs += o.OOVs
	s.ZeroProbs += o.ZeroProbs
	s.LogProb += o.LogProb
}

// PPL is the perplexity over the scored words and sentence ends,
// 10^(-logprob/(words-OOVs-zeroprobs+sentences)); NaN when nothing was scored.
func (s TextStats) PPL() float64 {
	d := s.Words - s.OOVs - s.ZeroProbs + s.Sentences
	if d <= 0 {
		return math.NaN()
	}
	return math.Pow(10, -s.LogProb/float64(d))
}

// PPL1 is the perplexity over the scored words only (sentence ends left out
// of the denominator); NaN when there are none.
func (s TextStats) PPL1() float64 {
	d := s.Words - s.OOVs - s.ZeroProbs
	if d <= 0 {
		return math.NaN()
	}
	return math.Pow(10, -s.LogProb/float64(d))
}

// formatG formats x as C++'s ostream does with precision 7 (SRILM's
// LogP_Precision): %.7g, "inf"/"-inf" for infinities.
func formatG(x float64) string {
	switch {
	case math.IsInf(x, 1):
		return "inf"
	case math.IsInf(x, -1):
		return "-inf"
	case math.IsNaN(x):
		return "nan"
	}
	return strconv.FormatFloat(x, 'g', 7, 64)
}

// String is SRILM's two lines (TextStats' operator<<):
//
//	N sentences, M words, K OOVs
//	Z zeroprobs, logprob= X ppl= Y ppl1= W
//
// each ending in a newline; the second is left out when there are no
// words and no sentences.
func (s TextStats) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d sentences, %d words, %d OOVs\n", s.Sentences, s.Words, s.OOVs)
	if s.Words+s.Sentences > 0 {
		fmt.Fprintf(&b, "%d zeroprobs, logprob= %s", s.ZeroProbs, formatG(s.LogProb))
		if d := s.Words - s.OOVs - s.ZeroProbs + s.Sentences; d > 0 {
			fmt.Fprintf(&b, " ppl= %s", formatG(s.PPL()))
		} else {
			b.WriteString(" ppl= undefined")
		}
		if d := s.Words - s.OOVs - s.ZeroProbs; d > 0 {
			fmt.Fprintf(&b, " ppl1= %s", formatG(s.PPL1()))
		} else {
			b.WriteString(" ppl1= undefined")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// SentenceProb scores one sentence as SRILM's LM::sentenceProb: <s> before
// it and </s> after it (unless it has them), each word and </s> predicted
// from the words before it. With debug ≥ 2 it writes SRILM's line per word
// to w ("\tp( word | prev ...) \t= [2gram] 0.1 [ -1 ]").
func (m *Model) SentenceProb(words []string, debug int, w io.Writer) TextStats {
	v := m.Vocab
	ids := make([]int32, 0, len(words)+2)
	if len(words) == 0 || words[0] != BOS {
		ids = append(ids, v.bos)
	}
	for _, s := range words {
		ids = append(ids, v.Index(s))
	}
	if len(words) == 0 || words[len(words)-1] != EOS {
		ids = append(ids, v.eos)
	}
	var st TextStats
	n := len(ids) - 2 // words between <s> and </s>
	prev, cur := make([]int32, m.Order), make([]int32, m.Order)
	for j := range prev {
		prev[j] = -1
	}
	if id, ok := m.t.find(0, -1, v.bos); ok && m.Order > 1 {
		prev[0] = id
	}
	for i := 1; i < len(ids); i++ {
		logp, found := m.scoreNext(prev, ids[i], cur)
		prev, cur = cur, prev
		if debug >= 2 {
			more := " "
			if i > 1 {
				more = " ..."
			}
			hit := "[OOV]"
			if found > 0 {
				hit = fmt.Sprintf("[%dgram]", found)
			}
			fmt.Fprintf(w, "\tp( %s | %s%s) \t= %s %s [ %s ]\n", v.words[ids[i]], v.words[ids[i-1]], more, hit,
				formatG(math.Pow(10, logp)), formatG(logp))
		}
		switch {
		case !math.IsInf(logp, -1):
			st.LogProb += logp
		case ids[i] == v.unk:
			st.OOVs++
		default:
			st.ZeroProbs++
		}
	}
	st.Sentences = 1
	st.Words = n
	return st
}

// Perplexity scores every non-blank line of r as a sentence (ngram -ppl)
// and returns the totals. With debug ≥ 1 it writes, as SRILM's pplFile
// does, each sentence, its statistics and a blank line to w; debug ≥ 2 adds
// the per-word lines. name labels errors.
func (m *Model) Perplexity(r io.Reader, name string, debug int, w io.Writer) (TextStats, error) {
	var total TextStats
	br := bufio.NewReaderSize(r, 1<<20)
	bw := bufio.NewWriter(w)
	for line := 1; ; line++ {
		s, err := br.ReadString('\n')
		if err != nil && err != io.EOF {
			return total, fmt.Errorf("%w: reading %s:%d: %w", ErrInput, name, line, err)
		}
		if words := strings.Fields(s); len(words) > 0 {
			if debug >= 1 {
				fmt.Fprintf(bw, "%s\n", strings.Join(words, " "))
			}
			st := m.SentenceProb(words, debug, bw)
			if debug >= 1 {
				fmt.Fprintf(bw, "%s\n", st)
			}
			total.Add(st)
		}
		if err == io.EOF {
			break
		}
	}
	return total, bw.Flush()
}
