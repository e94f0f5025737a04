package lm

import (
	"fmt"
	"math"
)

var nan32 = float32(math.NaN())

// ProbEpsilon is SRILM's Prob_Epsilon: probability sums closer than this
// to 0 (or to 1) count as 0 (or 1).
const ProbEpsilon = 3e-6

// DefaultMinCount is SRILM's default -gtNmin: 1 for unigrams and bigrams,
// 2 for trigrams and above (ngram-count's gtmin table).
func DefaultMinCount(order int) int64 {
	if order <= 2 {
		return 1
	}
	return 2
}

// Options are ngram-count's estimation options for -kndiscount and
// -wbdiscount.
type Options struct {
	// WittenBell is -wbdiscount: Witten–Bell discounting on raw counts at
	// every order instead of modified Kneser–Ney. It needs no
	// count-of-counts, so it estimates what Kneser–Ney cannot: a small
	// vocabulary (digits: every word follows many others, so no unigram has
	// a continuation count of 1 to 4) or a text too small for positive
	// discounts.
	WittenBell bool
	// MinCount[n-1] is -gtNmin: n-grams of order n whose count (for the
	// lower orders: continuation count) is below it get no probability of
	// their own; their mass goes to the back-off. Orders past the slice
	// take DefaultMinCount.
	MinCount []int64
	// Interpolate is -interpolate: each probability is the discounted
	// estimate plus the lower-order weight times the lower-order
	// probability; without it the lower order only gets unseen words.
	Interpolate bool
	// Warn, when not nil, receives SRILM's estimation warnings.
	Warn func(string)
}

func (o Options) minCount(order int) int64 {
	if order-1 < len(o.MinCount) && o.MinCount[order-1] > 0 {
		return o.MinCount[order-1]
	}
	return DefaultMinCount(order)
}

// Discounts are one order's modified Kneser–Ney parameters (Chen & Goodman):
// the count-of-counts of the counts used at that order and the discounts
// D1, D2, D3+ they give.
type Discounts struct {
	N1, N2, N3, N4 int64
	D1, D2, D3     float64
}

func (d Discounts) discount(c int64) float64 {
	switch c {
	case 1:
		return d.D1
	case 2:
		return d.D2
	}
	return d.D3
}

// estimator holds the state of one Estimate call.
type estimator struct {
	c      *Counts
	m      *Model
	opt    Options
	v      *Vocab
	suf    [][]int32 // per level, the id of each n-gram's suffix one level down
	first  [][]int32 // per level, each n-gram's first word
	kn     [][]int64 // counts used per level: raw at the top, continuation below
	disc   []Discounts
	nEvent int // SRILM's vocabSize
}

func (e *estimator) warn(format string, a ...any) {
	if e.opt.Warn != nil {
		e.opt.Warn(fmt.Sprintf(format, a...))
	}
}

// Estimate builds the interpolated (or back-off, without Interpolate)
// modified Kneser–Ney model of the counts, as SRILM's `ngram-count
// -kndiscount`, and returns it with each order's discounts. It fails when
// an order lacks n-grams seen 1, 2, 3 or 4 times (the discounts need all
// four count-of-counts), as SRILM does. The counts' trie becomes the
// model's: the counts stay readable but must not be added to afterwards.
//
// With opt.WittenBell it is `ngram-count -wbdiscount` instead (SRILM's
// WittenBell): in a context with total count N and V distinct words seen,
// a word seen n times gets n/(N+V) and the lower order the weight
// V/(N+V); no discounts are returned.
func (c *Counts) Estimate(opt Options) (*Model, []Discounts, error) {
	if c.Sentences == 0 {
		return nil, nil, fmt.Errorf("%w: no sentences to estimate from", ErrInput)
	}
	e := &estimator{c: c, opt: opt, v: c.Vocab}
	e.prepare()
	if err := e.discounts(); err != nil {
		return nil, nil, err
	}
	e.nEvent = e.v.NumEvents()
	// Every vocabulary word gets a unigram entry so the left-over mass can
	// reach the words the text never had; count 0 marks these entries,
	// which enumerate the vocabulary and are not estimated from.
	for id := range e.v.words {
		if _, added := c.t.add(0, -1, int32(id)); added {
			c.count[0] = append(c.count[0], 0)
			if c.Order > 1 { // else kn[0] is count[0]
				e.kn[0] = append(e.kn[0], 0)
			}
			e.first[0] = append(e.first[0], int32(id))
		}
	}
	e.kn[c.Order-1] = c.count[c.Order-1]
	if opt.WittenBell {
		copy(e.kn, c.count) // raw counts at every order
	}
	e.m = &Model{Vocab: c.Vocab, Order: c.Order, t: c.t,
		prob: make([][]float32, c.Order), bow: make([][]float32, c.Order), hasBow: make([][]bool, c.Order)}
	for k := range c.Order {
		n := len(c.t.levels[k].word)
		e.m.prob[k] = make([]float32, n)
		for i := range e.m.prob[k] {
			e.m.prob[k][i] = nan32
		}
		e.m.bow[k] = make([]float32, n)
		e.m.hasBow[k] = make([]bool, n)
	}
	for k := range c.Order {
		e.estimateLevel(k)
	}
	e.fixup()
	if opt.WittenBell {
		return e.m, nil, nil
	}
	return e.m, e.disc, nil
}

// prepare computes the suffix links, first words and the Kneser–Ney counts:
// below the top order an n-gram's count becomes the number of distinct
// words seen before it, except for n-grams starting with a non-event (<s>
// has nothing before it), which keep their counts (SRILM's
// KneserNey::prepareCounts).
func (e *estimator) prepare() {
	t := &e.c.t
	n := e.c.Order
	e.suf = t.suffixes()
	e.first = make([][]int32, n)
	for k := range n {
		l := &t.levels[k]
		f := make([]int32, len(l.word))
		for id := range f {
			if k == 0 {
				f[id] = l.word[id]
			} else {
				f[id] = e.first[k-1][l.ctx[id]]
			}
		}
		e.first[k] = f
	}
	e.kn = make([][]int64, n)
	e.kn[n-1] = e.c.count[n-1]
	if e.opt.WittenBell {
		return // raw counts at every order: Estimate sets them once the vocabulary's unigrams are in
	}
	for k := 0; k < n-1; k++ {
		kn := make([]int64, len(e.c.count[k]))
		for id := range kn {
			if e.v.IsNonEvent(e.first[k][id]) {
				kn[id] = e.c.count[k][id]
			}
		}
		for h, cnt := range e.c.count[k+1] {
			s := e.suf[k+1][h]
			if cnt > 0 && !e.v.IsNonEvent(e.first[k][s]) {
				kn[s]++
			}
		}
		e.kn[k] = kn
	}
}

// discounts computes D1, D2, D3+ per order from the count-of-counts of the
// n-grams that predict an event (ModKneserNey::estimate).
func (e *estimator) discounts() error {
	e.disc = make([]Discounts, e.c.Order)
	if e.opt.WittenBell {
		return nil
	}
	for k := range e.c.Order {
		var nc [5]int64
		for id, cnt := range e.kn[k] {
			if cnt >= 1 && cnt <= 4 && !e.v.IsNonEvent(e.c.t.levels[k].word[id]) {
				nc[cnt]++
			}
		}
		d := Discounts{N1: nc[1], N2: nc[2], N3: nc[3], N4: nc[4]}
		if d.N1 == 0 || d.N2 == 0 || d.N3 == 0 || d.N4 == 0 {
			return fmt.Errorf("%w: order %d: one of required modified KneserNey count-of-counts is zero: n1=%d n2=%d n3=%d n4=%d (the discounts need %d-grams counted once, twice, 3 and 4 times%s; SRILM stops here too)",
				ErrInput, k+1, d.N1, d.N2, d.N3, d.N4, k+1, lowerNote(k+1, e.c.Order))
		}
		y := float64(d.N1) / (float64(d.N1) + 2*float64(d.N2))
		d.D1 = 1 - 2*y*float64(d.N2)/float64(d.N1)
		d.D2 = 2 - 3*y*float64(d.N3)/float64(d.N2)
		d.D3 = 3 - 4*y*float64(d.N4)/float64(d.N3)
		if d.D1 < 0 || d.D2 < 0 || d.D3 < 0 {
			return fmt.Errorf("%w: order %d: one of modified KneserNey discounts is negative (D1=%g D2=%g D3+=%g from n1=%d n2=%d n3=%d n4=%d): too little text for this order (SRILM stops here too); use a lower -order or more text",
				ErrInput, k+1, d.D1, d.D2, d.D3, d.N1, d.N2, d.N3, d.N4)
		}
		e.disc[k] = d
	}
	return nil
}

// lowerNote explains which counts an order's count-of-counts are made of.
func lowerNote(order, top int) string {
	if order < top {
		return ", by continuation counts: distinct words before them"
	}
	return ""
}

// boProb is log10 of the back-off probability of n-gram id at level k: its
// own probability, else its prefix's back-off weight times its suffix's
// back-off probability.
func (e *estimator) boProb(k int, id int32) float64 {
	acc := 0.0
	for {
		if p := e.m.prob[k][id]; p == p {
			return acc + float64(p)
		}
		if k == 0 {
			return LogZero
		}
		acc += float64(e.m.bow[k-1][e.c.t.levels[k].ctx[id]])
		id = e.suf[k][id]
		k--
	}
}

// skipContext tells whether the context n-gram c at level k predicts
// nothing: it ends in </s>, or holds the unknown word while that is a
// non-event (Ngram::estimate's noneventContexts).
func (e *estimator) skipContext(k int, c int32) bool {
	l := e.c.t.levels
	if l[k].word[c] == e.v.eos {
		return true
	}
	if e.v.unkIsWord {
		return false
	}
	for ; k >= 0; k-- {
		if l[k].word[c] == e.v.unk {
			return true
		}
		c = l[k].ctx[c]
	}
	return false
}

// groups returns the n-grams of level k grouped by their prefix (one group
// for the unigrams): ids[start[c]:start[c+1]] are the n-grams after prefix c.
func (e *estimator) groups(k int) (start []int32, ids []int32) {
	l := &e.c.t.levels[k]
	if k == 0 {
		ids = make([]int32, len(l.word))
		for i := range ids {
			ids[i] = int32(i)
		}
		return []int32{0, int32(len(ids))}, ids
	}
	nctx := len(e.c.t.levels[k-1].word)
	start = make([]int32, nctx+1)
	for _, c := range l.ctx {
		start[c+1]++
	}
	for c := range nctx {
		start[c+1] += start[c]
	}
	pos := append([]int32(nil), start[:nctx]...)
	ids = make([]int32, len(l.ctx))
	for id, c := range l.ctx {
		ids[pos[c]] = int32(id)
		pos[c]++
	}
	return start, ids
}

// estimateLevel computes the probabilities of the (k+1)-grams, context by
// context, then the back-off weights of those contexts (Ngram::estimate's
// loop body and computeBOWs(k)).
func (e *estimator) estimateLevel(k int) {
	start, ids := e.groups(k)
	minCount := e.opt.minCount(k + 1)
	d := e.disc[k]
	prob := e.m.prob[k]
	var lower []float64 // per n-gram of the group: log10 lower-order probability
	for c := 0; c+1 < len(start); c++ {
		group := ids[start[c]:start[c+1]]
		if len(group) == 0 || (k > 0 && e.skipContext(k-1, int32(c))) {
			continue
		}
		var total int64
		var observed, min2, min3 int64
		for _, g := range group {
			w, n := e.c.t.levels[k].word[g], e.kn[k][g]
			if n == 0 || e.v.IsNonEvent(w) {
				continue
			}
			total += n
			observed++
			if n >= 2 {
				min2++
			}
			if n >= 3 {
				min3++
			}
		}
		if total == 0 {
			continue
		}
		lower = lower[:0]
		for _, g := range group {
			if k == 0 {
				lower = append(lower, -math.Log10(float64(e.nEvent)))
			} else {
				lower = append(lower, e.boProb(k-1, e.suf[k][g]))
			}
		}
		interpolate := e.opt.Interpolate
		for {
			totalProb := 0.0
			lowerWeight := (d.D1*float64(observed-min2) + d.D2*float64(min2-min3) + d.D3*float64(min3)) / float64(total)
			var wbCoeff float64
			if e.opt.WittenBell {
				wbCoeff = float64(total) / float64(total+observed)        // WittenBell::discount
				lowerWeight = float64(observed) / float64(total+observed) // WittenBell::lowerOrderWeight
			}
			for i, g := range group {
				w, n := e.c.t.levels[k].word[g], e.kn[k][g]
				if n == 0 {
					continue
				}
				if e.v.IsNonEvent(w) {
					// <s> gets a unigram of probability zero; other
					// non-events get nothing.
					if k == 0 && w == e.v.bos {
						prob[g] = float32(LogZero)
					}
					continue
				}
				coeff := 0.0
				if n >= minCount {
					coeff = (float64(n) - d.discount(n)) / float64(n)
					if e.opt.WittenBell {
						coeff = wbCoeff
					}
				}
				p := coeff * float64(n) / float64(total)
				if interpolate {
					p += lowerWeight * math.Pow(10, lower[i])
				}
				if coeff != 0 {
					totalProb += p
					prob[g] = float32(math.Log10(p))
				} else {
					prob[g] = nan32 // below -gtNmin: the back-off takes its mass
				}
			}
			// No mass left for the back-off: first drop interpolation,
			// then add one to the denominator (Doug Paul's hack, as SRILM).
			if totalProb > 1-ProbEpsilon && observed < int64(e.nEvent) {
				if interpolate {
					e.warn("%g backoff probability mass left for %q -- disabling interpolation", 1-totalProb, e.contextString(k, int32(c)))
					interpolate = false
				} else {
					e.warn("%g backoff probability mass left for %q -- incrementing denominator", 1-totalProb, e.contextString(k, int32(c)))
					total++
				}
				continue
			}
			break
		}
		e.backoffWeight(k, int32(c), group, lower)
	}
}

// contextString is the words of context c of the level-k n-grams, for messages.
func (e *estimator) contextString(k int, c int32) string {
	if k == 0 {
		return ""
	}
	var s string
	for i, w := range e.c.t.words(k-1, c, nil) {
		if i > 0 {
			s += " "
		}
		s += e.v.words[w]
	}
	return s
}

// backoffWeight sets the back-off weight of context c from the n-grams of
// group that have probabilities (Ngram::computeBOW): the mass they leave
// over that the lower order gives to all other words. For the unigrams
// (k == 0) the left-over mass goes to the vocabulary words that have no
// probability yet (Ngram::distributeProb).
func (e *estimator) backoffWeight(k int, c int32, group []int32, lower []float64) {
	prob := e.m.prob[k]
	num, den := 1.0, 1.0
	hasProb := false
	for i, g := range group {
		if prob[g] != prob[g] {
			continue
		}
		hasProb = true
		num -= math.Pow(10, float64(prob[g]))
		if k > 0 {
			den -= math.Pow(10, lower[i])
		}
	}
	if !hasProb {
		return // no probabilities, so no back-off node
	}
	if math.Abs(num) < ProbEpsilon {
		num = 0
	}
	if math.Abs(den) < ProbEpsilon {
		den = 0
	}
	ok := true
	switch {
	case den < ProbEpsilon && num > ProbEpsilon:
		// The lower order has no mass left for the other words: scale
		// this context's probabilities to sum to 1.
		e.warn("BOW denominator for context %q is zero; scaling probabilities to sum to 1", e.contextString(k, c))
		scale := float32(-math.Log10(1 - num))
		for _, g := range group {
			if prob[g] == prob[g] {
				prob[g] += scale
			}
		}
		num, den = 0, 0
	case num < 0:
		e.warn("BOW numerator for context %q is %g < 0", e.contextString(k, c), num)
		ok = false
	case den <= 0:
		if num > ProbEpsilon {
			e.warn("BOW denominator for context %q is %g <= 0, numerator is %g", e.contextString(k, c), den, num)
			ok = false
		} else {
			num, den = 0, 0
		}
	}
	if k == 0 {
		if ok {
			if num < ProbEpsilon {
				num = 0
			}
			e.distribute(num)
		}
		return
	}
	bow := float32(LogZero)
	if ok {
		if num < ProbEpsilon && den < ProbEpsilon {
			bow = 0
		} else {
			bow = float32(math.Log10(num)) - float32(math.Log10(den))
		}
	}
	e.m.bow[k-1][c] = bow
	e.m.hasBow[k-1][c] = true
}

// distribute spreads the unigrams' left-over mass evenly over the
// vocabulary words without a probability, or over all words when every
// word has one (Ngram::distributeProb).
func (e *estimator) distribute(mass float64) {
	prob := e.m.prob[0]
	var zero, all []int32
	for id := range e.v.words {
		w := int32(id)
		if e.v.IsNonEvent(w) {
			continue
		}
		g, _ := e.c.t.find(0, -1, w)
		all = append(all, g)
		if p := prob[g]; p != p || math.IsInf(float64(p), -1) {
			zero = append(zero, g)
		}
	}
	if len(zero) > 0 {
		if mass > 0 {
			e.warn("distributing %g left-over probability mass over %d zeroton words", mass, len(zero))
		}
		add := float32(math.Log10(mass / float64(len(zero))))
		for _, g := range zero {
			prob[g] = add
		}
		return
	}
	if mass > 0 {
		e.warn("distributing %g left-over probability mass over all %d words", mass, len(all))
	}
	add := mass / float64(len(all))
	for _, g := range all {
		prob[g] = float32(math.Log10(math.Pow(10, float64(prob[g])) + add))
	}
}

// fixup gives every context a probability of its own, as the ARPA format
// needs one line per context (Ngram::fixupProbs): the contexts with
// back-off weights, their suffixes (SRILM's trie holds those as nodes
// too), and all their prefixes that lack a probability get the one the
// back-off rule gives them, which leaves the distribution unchanged.
func (e *estimator) fixup() {
	l := e.c.t.levels
	for k := len(l) - 2; k >= 1; k-- {
		for c, node := range e.m.hasBow[k] {
			if !node {
				continue
			}
			for j, s := k, int32(c); j >= 1; j-- {
				s = e.suf[j][s]
				e.m.hasBow[j-1][s] = true
			}
		}
	}
	missing := make([][]int32, len(l))
	seen := make([]map[int32]bool, len(l))
	for k := 0; k < len(l)-1; k++ {
		for c, node := range e.m.hasBow[k] {
			if !node {
				continue
			}
			for j, p := k, int32(c); j >= 0; j-- {
				if e.m.has(j, p) {
					break
				}
				if seen[j] == nil {
					seen[j] = map[int32]bool{}
				}
				if !seen[j][p] {
					seen[j][p] = true
					missing[j] = append(missing[j], p)
				}
				p = l[j].ctx[p]
			}
		}
	}
	for k := range missing {
		for _, id := range missing[k] {
			e.m.prob[k][id] = float32(e.boProb(k, id))
		}
	}
}
