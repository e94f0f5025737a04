package lm

import "math"

// LogZero is log10 of probability zero (SRILM's LogP_Zero); ARPA files
// write it as -99.
var LogZero = math.Inf(-1)

// PseudoZero is how ARPA files write LogZero (SRILM's LogP_PseudoZero).
const PseudoZero = -99.0

// Model is an n-gram back-off language model: explicit log10
// probabilities for some n-grams, log10 back-off weights for their
// contexts, and the back-off rule for everything else, as an ARPA file
// holds it.
type Model struct {
	Vocab *Vocab
	Order int

	t trie
	// Per level and n-gram id: log10 probability, NaN when the n-gram has
	// none of its own (it is only a context); log10 back-off weight (0
	// unless set); whether the ARPA line carries the weight.
	// Stored as float32, as SRILM's LogP.
	prob   [][]float32
	bow    [][]float32
	hasBow [][]bool
}

func newModel(v *Vocab, order int) *Model {
	return &Model{Vocab: v, Order: order, t: newTrie(order),
		prob: make([][]float32, order), bow: make([][]float32, order), hasBow: make([][]bool, order)}
}

// entry returns the id of (ctx, w) at level k, adding an entry with no
// probability when new.
func (m *Model) entry(k int, ctx, w int32) int32 {
	id, added := m.t.add(k, ctx, w)
	if added {
		m.prob[k] = append(m.prob[k], float32(math.NaN()))
		m.bow[k] = append(m.bow[k], 0)
		m.hasBow[k] = append(m.hasBow[k], false)
	}
	return id
}

// has tells whether n-gram id at level k has a probability of its own.
func (m *Model) has(k int, id int32) bool { p := m.prob[k][id]; return p == p }

// NumNgrams returns how many n-grams of order n have a probability (the
// ARPA header's "ngram n=").
func (m *Model) NumNgrams(n int) int {
	if n < 1 || n > m.Order {
		return 0
	}
	c := 0
	for _, p := range m.prob[n-1] {
		if p == p { // not NaN
			c++
		}
	}
	return c
}

// WordProb returns log10 p(w | hist) by the back-off rule, with hist the
// preceding words, oldest first (only the last Order-1 matter), and the
// order of the n-gram whose probability was used (0 when w has none at
// all: then the result is LogZero). As SRILM's Ngram::wordProbBO: the
// longest context that has an explicit probability for w gives it, times
// the back-off weights of the longer contexts the model holds.
func (m *Model) WordProb(w int32, hist []int32) (float64, int) {
	n := len(hist)
	if n > m.Order-1 {
		n = m.Order - 1
	}
	logp, bow, found := LogZero, 0.0, 0
	if id, ok := m.t.find(0, -1, w); ok && m.has(0, id) {
		logp, found = float64(m.prob[0][id]), 1
	}
	for j := 1; j <= n; j++ {
		cid, ok := m.t.lookup(hist[len(hist)-j:])
		if !ok {
			break
		}
		bow += float64(m.bow[j-1][cid])
		if id, ok := m.t.find(j, cid, w); ok && m.has(j, id) {
			logp, bow, found = float64(m.prob[j][id]), 0, j+1
		}
	}
	if found == 0 {
		return LogZero, 0
	}
	return logp + bow, found
}

// scoreNext is WordProb for a left-to-right walk: prev holds the ids of the
// n-grams of lengths 1..Order-1 that end at the previous word (-1 where
// the model has none), and cur gets those ending at w; each word then costs
// one lookup per order instead of one per context word.
func (m *Model) scoreNext(prev []int32, w int32, cur []int32) (float64, int) {
	n := m.Order - 1
	logp, bow, found := LogZero, 0.0, 0
	uid, ok := m.t.find(0, -1, w)
	if ok && m.has(0, uid) {
		logp, found = float64(m.prob[0][uid]), 1
	}
	if !ok {
		uid = -1
	}
	if n > 0 {
		cur[0] = uid
	}
	for j := 1; j <= n; j++ {
		c := prev[j-1]
		if c < 0 {
			for ; j < n; j++ {
				cur[j] = -1
			}
			break
		}
		bow += float64(m.bow[j-1][c])
		id, ok := m.t.find(j, c, w)
		if j < n {
			cur[j] = id
			if !ok {
				cur[j] = -1
			}
		}
		if ok && m.has(j, id) {
			logp, bow, found = float64(m.prob[j][id]), 0, j+1
		}
	}
	if found == 0 {
		return LogZero, 0
	}
	return logp + bow, found
}

// Prob returns log10 p(word | hist) for words, as WordProb does for ids;
// words outside the vocabulary are the unknown word.
func (m *Model) Prob(word string, hist ...string) float64 {
	h := make([]int32, len(hist))
	for i, s := range hist {
		h[i] = m.Vocab.Index(s)
	}
	p, _ := m.WordProb(m.Vocab.Index(word), h)
	return p
}

// Ngram returns the explicit log10 probability and back-off weight of an
// n-gram as the ARPA file lists them; ok is false when the model has no
// probability for it.
func (m *Model) Ngram(words ...string) (logp, bow float64, ok bool) {
	ids := make([]int32, len(words))
	for i, s := range words {
		id, found := m.Vocab.ID(s)
		if !found {
			return 0, 0, false
		}
		ids[i] = id
	}
	id, found := m.t.lookup(ids)
	if !found || len(ids) > m.Order || !m.has(len(ids)-1, id) {
		return 0, 0, false
	}
	return float64(m.prob[len(ids)-1][id]), float64(m.bow[len(ids)-1][id]), true
}
