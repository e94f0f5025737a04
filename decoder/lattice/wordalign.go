package lattice

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// TransitionInfo is what word alignment needs from a transition model
// (hmm.TransitionModel has it): the phone of a transition-id, whether it
// enters its HMM's final state, and whether it is a self-loop.
type TransitionInfo interface {
	TransitionIDToPhone(tid int32) int32
	IsFinal(tid int32) bool
	IsSelfLoop(tid int32) bool
}

// WordBoundaryInfo is Kaldi's WordBoundaryInfo, read from a lang dir's
// phones/word_boundary.int: each phone is a word-begin, word-end, word-internal,
// singleton (begin and end) or nonword (silence) phone.
type WordBoundaryInfo struct {
	kind map[int32]phoneKind
	// Reorder says that a phone's last self-loops follow its final
	// transition-id, as Kaldi's graphs have them (--reorder, default true).
	Reorder bool
	// SilenceLabel labels arcs of silence; PartialWordLabel arcs of a word
	// cut off at the end of a lattice that was forced out (both 0 by
	// default, as Kaldi's --silence-label and --partial-word-label).
	SilenceLabel, PartialWordLabel int32
}

type phoneKind uint8

const (
	phoneNone phoneKind = iota
	phoneBegin
	phoneEnd
	phoneInternal
	phoneSingleton
	phoneNonword
)

// ReadWordBoundary reads word_boundary.int ("<phone-id> begin|end|singleton|
// internal|nonword" per line); name labels errors.
func ReadWordBoundary(r io.Reader, name string) (*WordBoundaryInfo, error) {
	kinds := map[string]phoneKind{"begin": phoneBegin, "end": phoneEnd, "internal": phoneInternal, "singleton": phoneSingleton, "nonword": phoneNonword}
	info := &WordBoundaryInfo{kind: map[int32]phoneKind{}, Reorder: true}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		p, err := strconv.ParseInt(f[0], 10, 32)
		k, ok := kinds[strings.ToLower(safeField(f, 1))]
		if len(f) != 2 || err != nil || p <= 0 || !ok {
			return nil, fmt.Errorf("%s: line %d: expected \"<phone-id> begin|end|singleton|internal|nonword\", got %q", name, line, sc.Text())
		}
		if _, dup := info.kind[int32(p)]; dup {
			return nil, fmt.Errorf("%s: line %d: phone %d listed twice", name, line, p)
		}
		info.kind[int32(p)] = k
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(info.kind) == 0 {
		return nil, fmt.Errorf("%s: no phones", name)
	}
	return info, nil
}

func safeField(f []string, i int) string {
	if i < len(f) {
		return f[i]
	}
	return ""
}

// LexiconInfo is Kaldi's WordAlignLatticeLexiconInfo, read from a lang
// dir's phones/align_lexicon.int: lines "word-in word-out phone1 … phoneN";
// word-in 0 marks pronunciations that carry no word in the lattice
// (optional silence, "<eps> <eps> SIL").
type LexiconInfo struct {
	// entries maps word-in and the phone sequence to word-out.
	entries map[string]int32
	// prefixes holds every prefix of a pronunciation, so that an
	// alignment whose phones can no longer become a word is dropped early.
	prefixes map[string]bool
	// Reorder as WordBoundaryInfo.Reorder.
	Reorder bool
	// PartialWordLabel labels a word cut off at the end of a forced-out
	// lattice (Kaldi's --partial-word-label, default 0).
	PartialWordLabel int32
}

func phoneKey(word int32, phones []int32) string {
	var b strings.Builder
	b.WriteString(strconv.Itoa(int(word)))
	for _, p := range phones {
		b.WriteByte(' ')
		b.WriteString(strconv.Itoa(int(p)))
	}
	return b.String()
}

// ReadAlignLexicon reads align_lexicon.int; name labels errors.
func ReadAlignLexicon(r io.Reader, name string) (*LexiconInfo, error) {
	info := &LexiconInfo{entries: map[string]int32{}, prefixes: map[string]bool{}, Reorder: true}
	sc := bufio.NewScanner(r)
	for line := 1; sc.Scan(); line++ {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) < 3 {
			return nil, fmt.Errorf("%s: line %d: expected \"word-in word-out phone1 ... phoneN\" (integers), got %q", name, line, sc.Text())
		}
		v := make([]int32, len(f))
		for i, s := range f {
			x, err := strconv.ParseInt(s, 10, 32)
			if err != nil || x < 0 || (i >= 2 && x == 0) {
				return nil, fmt.Errorf("%s: line %d: bad integer %q (this file is the .int form of align_lexicon)", name, line, s)
			}
			v[i] = int32(x)
		}
		phones := v[2:]
		k := phoneKey(v[0], phones)
		if old, ok := info.entries[k]; ok && old != v[1] {
			return nil, fmt.Errorf("%s: line %d: word %d has this pronunciation twice with different output words", name, line, v[0])
		}
		info.entries[k] = v[1]
		for n := 1; n <= len(phones); n++ {
			info.prefixes[phoneKey(-1, phones[:n])] = true
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(info.entries) == 0 {
		return nil, fmt.Errorf("%s: empty lexicon", name)
	}
	return info, nil
}

// alignState is a computation state of word alignment along one path: the
// transition-ids and words read but not yet put on an output arc, and the
// weight read with them.
type alignState struct {
	tids, words []int32
	w           Weight
}

func (s *alignState) empty() bool { return len(s.tids) == 0 && len(s.words) == 0 }

func (s *alignState) key(in int32) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d|%x|%x|", in, math.Float32bits(s.w.Graph), math.Float32bits(s.w.Acoustic))
	for _, t := range s.tids {
		b.WriteString(strconv.Itoa(int(t)))
		b.WriteByte(',')
	}
	b.WriteByte('|')
	for _, t := range s.words {
		b.WriteString(strconv.Itoa(int(t)))
		b.WriteByte(',')
	}
	return b.String()
}

// alignOut is one output arc an alignment rule takes from a state: n
// transition-ids, the first word when useWord, labelled label.
type alignOut struct {
	label   int32
	n       int
	useWord bool
	dropAll bool // forced out: drop every pending word
}

// alignRules decides the output arcs of a computation state. outputs gives
// the arcs that can be output now (at the end of the lattice when atEnd);
// force gives the arc that flushes a state at the end when outputs has
// none, reporting whether that is an error.
type alignRules interface {
	outputs(s *alignState, atEnd bool) []alignOut
	viable(s *alignState) bool
	force(s *alignState) (alignOut, bool)
	// forceOnlyIfStuck says that force is used only when no state at the
	// end of the lattice could be flushed by outputs (the lexicon
	// aligner's rule); otherwise force flushes any state at the end
	// (the word-boundary aligner's rule).
	forceOnlyIfStuck() bool
}

// AlignWords is Kaldi's WordAlignLattice: the CompactLattice with arcs cut
// at word boundaries, so that each arc carries one word (or silence,
// labelled SilenceLabel) and exactly the transition-ids of that word. ok is
// false when the lattice did not align cleanly (a word cut off at the end,
// phones that fit no word); the lattice returned then holds what could be
// aligned (Kaldi's "partial lattice"), or no start state.
func AlignWords(c *CompactLattice, tm TransitionInfo, info *WordBoundaryInfo) (*CompactLattice, bool) {
	return alignWords(c, &boundaryRules{tm: tm, info: info})
}

// AlignWordsLexicon is Kaldi's WordAlignLatticeLexicon: as AlignWords, but
// words are found by matching the phones of each path against the
// pronunciations of align_lexicon.int, for lang dirs whose phones carry no
// word-position marks. Silence between words becomes arcs labelled with the
// word-out of the lexicon's word-in-0 entry (0, "<eps>").
func AlignWordsLexicon(c *CompactLattice, tm TransitionInfo, lex *LexiconInfo) (*CompactLattice, bool) {
	return alignWords(c, &lexiconRules{tm: tm, lex: lex})
}

// alignWords explores (input state, computation state) pairs as Kaldi's
// aligners do: a pair that can output an arc does so (every way it can),
// otherwise it reads each input arc. Reading an arc is an epsilon arc of
// the output, removed at the end.
func alignWords(c *CompactLattice, rules alignRules) (*CompactLattice, bool) {
	if c.Start < 0 || int(c.Start) >= len(c.States) {
		return &CompactLattice{Start: NoState}, false
	}
	superFinal := int32(len(c.States))
	type tuple struct {
		in int32
		st alignState
	}
	type outArc struct {
		eps   bool
		label int32
		w     CompactWeight
		next  int32
	}
	var (
		tuples []tuple
		arcs   [][]outArc
		final  []CompactWeight
		ids    = map[string]int32{}
		queue  []int32
		errs   bool
	)
	get := func(t tuple) int32 {
		k := t.st.key(t.in)
		if id, ok := ids[k]; ok {
			return id
		}
		id := int32(len(tuples))
		ids[k] = id
		tuples = append(tuples, t)
		arcs = append(arcs, nil)
		final = append(final, CompactZero)
		queue = append(queue, id)
		return id
	}
	emit := func(from int32, t tuple, o alignOut) int32 {
		st := t.st
		tids := slices.Clone(st.tids[:o.n])
		label := o.label
		words := st.words
		if o.useWord {
			words = words[1:]
		}
		if o.dropAll {
			words = nil
		}
		next := tuple{in: t.in, st: alignState{tids: slices.Clone(st.tids[o.n:]), words: slices.Clone(words), w: One}}
		to := get(next)
		arcs[from] = append(arcs[from], outArc{label: label, w: CompactWeight{W: st.w, Tids: tids}, next: to})
		return to
	}
	var stuck []int32 // pairs at the end of the lattice that outputs could not flush
	natural := false
	get(tuple{in: c.Start, st: alignState{w: One}})
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		t := tuples[id]
		atEnd := t.in == superFinal
		if outs := rules.outputs(&t.st, atEnd); len(outs) > 0 {
			for _, o := range outs {
				emit(id, t, o)
			}
			continue
		}
		if atEnd {
			if t.st.empty() {
				final[id] = CompactWeight{W: t.st.w}
				natural = true
			} else {
				stuck = append(stuck, id)
			}
			continue
		}
		if !rules.viable(&t.st) {
			continue
		}
		st := &c.States[t.in]
		read := func(label int32, w CompactWeight, next int32) {
			ns := alignState{tids: append(slices.Clone(t.st.tids), w.Tids...), words: slices.Clone(t.st.words), w: Times(t.st.w, w.W)}
			if label != 0 {
				ns.words = append(ns.words, label)
			}
			to := get(tuple{in: next, st: ns})
			arcs[id] = append(arcs[id], outArc{eps: true, next: to})
		}
		for _, a := range st.Arcs {
			if !a.W.W.IsZero() {
				read(a.Label, a.W, a.Next)
			}
		}
		if !st.Final.W.IsZero() {
			read(0, st.Final, superFinal)
		}
	}
	// Flush what is left at the end of the lattice. The lexicon aligner
	// does so only when no path ended cleanly (a lattice forced out).
	if len(stuck) > 0 && (!rules.forceOnlyIfStuck() || !natural) {
		if rules.forceOnlyIfStuck() {
			errs = true
		}
		for len(stuck) > 0 {
			id := stuck[len(stuck)-1]
			stuck = stuck[:len(stuck)-1]
			t := tuples[id]
			if t.st.empty() {
				final[id] = CompactWeight{W: t.st.w}
				continue
			}
			o, bad := rules.force(&t.st)
			errs = errs || bad
			n := len(tuples)
			to := emit(id, t, o)
			if int(to) >= n { // new: flush it in turn
				stuck = append(stuck, to)
			}
		}
	}
	// Remove the epsilon arcs (weight One, no transition-ids): each state
	// takes the arcs and final weights of the states its epsilons reach.
	n := len(tuples)
	closureArcs := make([][]outArc, n)
	closureFinal := make([]CompactWeight, n)
	done := make([]bool, n)
	var visit func(s int32)
	visit = func(s int32) {
		if done[s] {
			return
		}
		done[s] = true
		f := final[s]
		var out []outArc
		for _, a := range arcs[s] {
			if a.eps {
				visit(a.next)
				out = append(out, closureArcs[a.next]...)
				if CompareCompact(closureFinal[a.next], f) > 0 {
					f = closureFinal[a.next]
				}
			} else {
				out = append(out, a)
			}
		}
		closureArcs[s], closureFinal[s] = out, f
	}
	for s := 0; s < n; s++ {
		visit(int32(s))
	}
	// Keep the states reachable from the start by real arcs that reach a
	// final weight, numbered in topological order.
	reach := make([]bool, n)
	order := []int32{0}
	reach[0] = true
	for i := 0; i < len(order); i++ {
		for _, a := range closureArcs[order[i]] {
			if !reach[a.next] {
				reach[a.next] = true
				order = append(order, a.next)
			}
		}
	}
	coacc := make([]bool, n)
	for changed := true; changed; {
		changed = false
		for i := len(order) - 1; i >= 0; i-- {
			s := order[i]
			if coacc[s] {
				continue
			}
			ok := !closureFinal[s].W.IsZero()
			for _, a := range closureArcs[s] {
				ok = ok || coacc[a.next]
			}
			if ok {
				coacc[s], changed = true, true
			}
		}
	}
	out := &CompactLattice{Start: NoState}
	if !coacc[0] {
		return out, false
	}
	keep := &CompactLattice{Start: 0}
	newID := make([]int32, n)
	for i := range newID {
		newID[i] = NoState
	}
	for _, s := range order {
		if coacc[s] {
			newID[s] = keep.AddState()
		}
	}
	for _, s := range order {
		if newID[s] == NoState {
			continue
		}
		cs := &keep.States[newID[s]]
		cs.Final = closureFinal[s]
		for _, a := range closureArcs[s] {
			if coacc[a.next] {
				cs.Arcs = append(cs.Arcs, CompactArc{Label: a.label, W: a.w, Next: newID[a.next]})
			}
		}
	}
	if order, err := keep.TopSortOrder(); err == nil {
		keep = keep.renumber(order)
	}
	return keep, !errs
}

// renumber returns c with state order[i] renamed i.
func (c *CompactLattice) renumber(order []int32) *CompactLattice {
	newID := make([]int32, len(c.States))
	for i, s := range order {
		newID[s] = int32(i)
	}
	out := &CompactLattice{Start: newID[c.Start], States: make([]CompactState, len(order))}
	for i, s := range order {
		st := c.States[s]
		arcs := make([]CompactArc, len(st.Arcs))
		for j, a := range st.Arcs {
			a.Next = newID[a.Next]
			arcs[j] = a
		}
		out.States[i] = CompactState{Final: st.Final, Arcs: arcs}
	}
	return out
}

// phoneLen returns the number of transition-ids from i that finish the
// phone starting at i: up to its final transition-id and, with reorder,
// the self-loops after it. ok is false when the pending ids do not show
// the end (more ids might still belong to the phone), unless atEnd.
func phoneLen(tm TransitionInfo, tids []int32, i int, reorder, atEnd bool) (n int, ok bool) {
	j := i
	for j < len(tids) && !tm.IsFinal(tids[j]) {
		j++
	}
	if j == len(tids) {
		return 0, false
	}
	j++
	if reorder {
		for j < len(tids) && tm.IsSelfLoop(tids[j]) {
			j++
		}
	}
	if j == len(tids) && !atEnd {
		return 0, false
	}
	return j - i, true
}

type boundaryRules struct {
	tm   TransitionInfo
	info *WordBoundaryInfo
}

func (r *boundaryRules) forceOnlyIfStuck() bool  { return false }
func (r *boundaryRules) viable(*alignState) bool { return true }

// outputs is Kaldi's OutputArc: a silence phone, a one-phone word or a word
// from its begin phone to its end phone, once the next transition-id shows
// that the last phone has ended. Kaldi outputs at the end of the lattice
// only through OutputArcForce; so do we.
func (r *boundaryRules) outputs(s *alignState, atEnd bool) []alignOut {
	if len(s.tids) == 0 || atEnd {
		return nil
	}
	kind := r.info.kind[r.tm.TransitionIDToPhone(s.tids[0])]
	switch {
	case kind == phoneNonword:
		if n, ok := phoneLen(r.tm, s.tids, 0, r.info.Reorder, false); ok {
			return []alignOut{{label: r.info.SilenceLabel, n: n}}
		}
	case kind == phoneSingleton && len(s.words) > 0:
		if n, ok := phoneLen(r.tm, s.tids, 0, r.info.Reorder, false); ok {
			return []alignOut{{label: s.words[0], n: n, useWord: true}}
		}
	case kind == phoneBegin && len(s.words) > 0:
		n, ok := phoneLen(r.tm, s.tids, 0, r.info.Reorder, false)
		if !ok {
			return nil
		}
		i := n
		for i < len(s.tids) && r.info.kind[r.tm.TransitionIDToPhone(s.tids[i])] != phoneEnd {
			i++
		}
		if i == len(s.tids) {
			return nil
		}
		if m, ok := phoneLen(r.tm, s.tids, i, r.info.Reorder, false); ok {
			return []alignOut{{label: s.words[0], n: i + m, useWord: true}}
		}
	}
	return nil
}

// force is Kaldi's OutputArcForce.
func (r *boundaryRules) force(s *alignState) (alignOut, bool) {
	switch {
	case len(s.words) > 0 && len(s.tids) > 0:
		return alignOut{label: s.words[0], n: len(s.tids), useWord: true}, !r.plausibleWord(s.tids)
	case len(s.words) > 0:
		return alignOut{dropAll: true}, true
	}
	if r.info.kind[r.tm.TransitionIDToPhone(s.tids[0])] == phoneNonword {
		return alignOut{label: r.info.SilenceLabel, n: len(s.tids)}, false
	}
	return alignOut{label: r.info.PartialWordLabel, n: len(s.tids)}, true
}

// plausibleWord is Kaldi's IsPlausibleWord.
func (r *boundaryRules) plausibleWord(tids []int32) bool {
	first := r.info.kind[r.tm.TransitionIDToPhone(tids[0])]
	lastPhone := r.tm.TransitionIDToPhone(tids[len(tids)-1])
	last := r.info.kind[lastPhone]
	if !(first == phoneSingleton && r.tm.TransitionIDToPhone(tids[0]) == lastPhone) && !(first == phoneBegin && last == phoneEnd) {
		return false
	}
	t := tids[len(tids)-1]
	return r.tm.IsFinal(t) || (r.info.Reorder && r.tm.IsSelfLoop(t))
}

type lexiconRules struct {
	tm  TransitionInfo
	lex *LexiconInfo
}

func (r *lexiconRules) forceOnlyIfStuck() bool { return true }

// phones splits the pending transition-ids into whole phones: ends[k] is
// the number of ids in the first k+1 phones.
func (r *lexiconRules) phones(s *alignState, atEnd bool) (phones []int32, ends []int) {
	i := 0
	for i < len(s.tids) {
		n, ok := phoneLen(r.tm, s.tids, i, r.lex.Reorder, atEnd)
		if !ok {
			break
		}
		phones = append(phones, r.tm.TransitionIDToPhone(s.tids[i]))
		i += n
		ends = append(ends, i)
	}
	return phones, ends
}

// outputs gives every arc whose phones are the first whole phones pending
// and form a pronunciation of the first pending word, or of no word
// (silence). Outputting as soon as a match exists (rather than reading on)
// gives each alignment one way to be made, as Kaldi's freshness rules do;
// it misses a pronunciation that extends a shorter one of the same word.
func (r *lexiconRules) outputs(s *alignState, atEnd bool) []alignOut {
	phones, ends := r.phones(s, atEnd)
	var out []alignOut
	for k := 1; k <= len(phones); k++ {
		if len(s.words) > 0 {
			if w, ok := r.lex.entries[phoneKey(s.words[0], phones[:k])]; ok {
				out = append(out, alignOut{label: w, n: ends[k-1], useWord: true})
			}
		}
		if w, ok := r.lex.entries[phoneKey(0, phones[:k])]; ok {
			out = append(out, alignOut{label: w, n: ends[k-1]})
		}
	}
	return out
}

// viable says whether the pending whole phones can still begin (or be) a
// pronunciation; others can never be output.
func (r *lexiconRules) viable(s *alignState) bool {
	phones, _ := r.phones(s, false)
	return len(phones) == 0 || r.lex.prefixes[phoneKey(-1, phones)]
}

// force flushes a path that did not end on a word boundary, as Kaldi's
// TakeForcedTransition: the pending ids go on one arc with the first
// pending word, or with the partial-word label when there is none.
func (r *lexiconRules) force(s *alignState) (alignOut, bool) {
	switch {
	case len(s.words) > 0:
		return alignOut{label: s.words[0], n: len(s.tids), dropAll: true}, true
	}
	return alignOut{label: r.lex.PartialWordLabel, n: len(s.tids)}, true
}
