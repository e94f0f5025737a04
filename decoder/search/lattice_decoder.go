package search

import (
	"errors"
	"math"
)

const none = -1

// token is Kaldi's LatticeFasterDecoder Token: the best cost of reaching this
// (frame, state), the extra cost (how much worse than the best path the best
// path through it is, known after pruning) and its forward links.
type token struct {
	tot, extra float32
	links      int32 // first forward link, or none
	next       int32 // next token of the same frame, or none
	state      int32 // graph state
}

// link is a forward link: an arc of the state-level lattice.
type link struct {
	to             int32 // token
	ilabel, olabel int32
	graph, ac      float32
	next           int32 // next link of the same token
}

type frameToks struct {
	head                        int32
	mustPruneLinks, mustPruneTk bool
}

// newFrameToks is an empty frame that still needs pruning (Kaldi's TokenList
// starts with both flags set).
func newFrameToks() frameToks { return frameToks{head: none, mustPruneLinks: true, mustPruneTk: true} }

// LatticeDecoder is Kaldi's LatticeFasterDecoder over a Graph. One decoder
// decodes utterances one after another, reusing its memory; it is not safe
// for concurrent use.
type LatticeDecoder struct {
	g    *Graph
	opts Options
	beam, latBeam, beamDelta,
	pruneDelta float32

	toks     []token
	freeTok  int32
	links    []link
	freeLink int32
	numToks  int

	frames      []frameToks
	costOffsets []float32

	// The frontier (Kaldi's toks_): tokens of the newest frame by state.
	front      []int32 // token ids, in insertion order
	prevFront  []int32
	stateTok   []int32
	stateStamp []uint32
	stamp      uint32

	queue []int32 // non-emitting queue (token ids)
	pos   []int32 // token → position, scratch of topSortFrame
	// passOf[t] is the pruning pass that last recomputed token t.
	passOf    []uint32
	passStamp uint32
	costs     []float32
	tidLL     []float32
	warned    bool
	final     finalInfo
	decoded   bool // FinalizeDecoding ran
}

type finalInfo struct {
	costs    map[int32]float32 // token → final cost (tokens in a final state)
	relative float32
	best     float32
}

// NewLatticeDecoder returns a decoder for g with opts.
func NewLatticeDecoder(g *Graph, opts Options) *LatticeDecoder {
	d := &LatticeDecoder{g: g, opts: opts,
		beam: float32(opts.Beam), latBeam: float32(opts.LatticeBeam), beamDelta: float32(opts.BeamDelta),
		stateTok: make([]int32, g.NumStates()), stateStamp: make([]uint32, g.NumStates()),
		freeTok: none, freeLink: none}
	d.pruneDelta = float32(opts.LatticeBeam * opts.PruneScale)
	return d
}

func (d *LatticeDecoder) newToken(tot float32, next, state int32) int32 {
	d.numToks++
	t := token{tot: tot, links: none, next: next, state: state}
	if d.freeTok != none {
		id := d.freeTok
		d.freeTok = d.toks[id].next
		d.toks[id] = t
		return id
	}
	d.toks = append(d.toks, t)
	d.passOf = append(d.passOf, 0)
	return int32(len(d.toks) - 1)
}

func (d *LatticeDecoder) deleteToken(id int32) {
	d.numToks--
	d.toks[id].next = d.freeTok
	d.toks[id].tot = inf32
	d.freeTok = id
}

func (d *LatticeDecoder) newLink(l link) int32 {
	if d.freeLink != none {
		id := d.freeLink
		d.freeLink = d.links[id].next
		d.links[id] = l
		return id
	}
	d.links = append(d.links, l)
	return int32(len(d.links) - 1)
}

func (d *LatticeDecoder) deleteLinks(tok int32) {
	for l := d.toks[tok].links; l != none; {
		next := d.links[l].next
		d.links[l].next = d.freeLink
		d.freeLink = l
		l = next
	}
	d.toks[tok].links = none
}

// reset forgets the previous utterance, keeping the memory.
func (d *LatticeDecoder) reset() {
	d.toks = d.toks[:0]
	d.passOf = d.passOf[:0]
	d.links = d.links[:0]
	d.freeTok, d.freeLink, d.numToks = none, none, 0
	d.frames = d.frames[:0]
	d.costOffsets = d.costOffsets[:0]
	d.front = d.front[:0]
	d.warned = false
	d.final = finalInfo{}
	d.decoded = false
	d.newFrontier()
}

// newFrontier invalidates the state → token table in O(1).
func (d *LatticeDecoder) newFrontier() {
	d.stamp++
	if d.stamp == 0 { // wrapped: clear for real
		for i := range d.stateStamp {
			d.stateStamp[i] = 0
		}
		d.stamp = 1
	}
}

// findOrAdd is Kaldi's FindOrAddToken on the frontier for the newest frame:
// it returns the token of state, creating it with cost tot, or lowering its
// cost to tot; changed reports whether it was created or improved.
func (d *LatticeDecoder) findOrAdd(state int32, tot float32) (tok int32, changed bool) {
	if d.stateStamp[state] == d.stamp {
		tok = d.stateTok[state]
		if d.toks[tok].tot > tot {
			d.toks[tok].tot = tot
			return tok, true
		}
		return tok, false
	}
	f := &d.frames[len(d.frames)-1]
	tok = d.newToken(tot, f.head, state)
	f.head = tok
	d.stateStamp[state] = d.stamp
	d.stateTok[state] = tok
	d.front = append(d.front, tok)
	return tok, true
}

// ErrNoTokens is returned when no token survives to the end of an utterance.
var ErrNoTokens = errors.New("no surviving tokens")

// Decode decodes one utterance: InitDecoding, AdvanceDecoding over every
// frame, FinalizeDecoding. It returns ErrNoTokens (Kaldi's "Failed to
// decode") when nothing survives to the last frame. Warnings (Kaldi's
// WARNING lines) go to warn when it is not nil.
func (d *LatticeDecoder) Decode(dec Decodable, warn func(string, ...any)) error {
	if n := int(d.g.MaxInputLabel()) + 1; len(d.tidLL) < n {
		d.tidLL = make([]float32, n)
	}
	d.reset()
	d.frames = append(d.frames, newFrameToks())
	d.findOrAdd(d.g.Start, 0)
	d.processNonemitting(d.beam, warn)
	for frame := 0; frame < dec.NumFrames(); frame++ {
		if frame%d.opts.PruneInterval == 0 {
			d.pruneActiveTokens(d.pruneDelta, warn)
		}
		cutoff := d.processEmitting(dec, frame)
		d.processNonemitting(cutoff, warn)
	}
	d.finalize(warn)
	if d.frames[len(d.frames)-1].head == none {
		return ErrNoTokens
	}
	return nil
}

// NumFramesDecoded is the number of frames processed.
func (d *LatticeDecoder) NumFramesDecoded() int { return len(d.frames) - 1 }

// getCutoff is Kaldi's GetCutoff over the frontier: the cost cutoff from the
// beam and the max-active/min-active limits, the adaptive beam, and the best
// token.
func (d *LatticeDecoder) getCutoff(front []int32) (cutoff, adaptiveBeam float32, best int32) {
	bestW := inf32
	best = none
	maxActive, minActive := d.opts.MaxActive, d.opts.MinActive
	if maxActive == math.MaxInt32 && minActive == 0 {
		for _, t := range front {
			if w := d.toks[t].tot; w < bestW {
				bestW, best = w, t
			}
		}
		return bestW + d.beam, d.beam, best
	}
	d.costs = d.costs[:0]
	for _, t := range front {
		w := d.toks[t].tot
		d.costs = append(d.costs, w)
		if w < bestW {
			bestW, best = w, t
		}
	}
	beamCutoff := bestW + d.beam
	minActiveCutoff, maxActiveCutoff := inf32, inf32
	if len(d.costs) > maxActive {
		maxActiveCutoff = nthElement(d.costs, maxActive)
	}
	if maxActiveCutoff < beamCutoff {
		return maxActiveCutoff, maxActiveCutoff - bestW + d.beamDelta, best
	}
	if len(d.costs) > minActive {
		if minActive == 0 {
			minActiveCutoff = bestW
		} else {
			upto := len(d.costs)
			if len(d.costs) > maxActive {
				upto = maxActive
			}
			minActiveCutoff = nthElement(d.costs[:upto], minActive)
		}
	}
	if minActiveCutoff > beamCutoff {
		return minActiveCutoff, minActiveCutoff - bestW + d.beamDelta, best
	}
	return beamCutoff, d.beam, best
}

// nthElement returns the value that would be at index n if a were sorted
// (std::nth_element); it reorders a. If n ≥ len(a) it returns the maximum.
func nthElement(a []float32, n int) float32 {
	if n >= len(a) {
		m := a[0]
		for _, x := range a {
			m = max(m, x)
		}
		return m
	}
	lo, hi := 0, len(a)-1
	for lo < hi {
		p := a[(lo+hi)/2]
		i, j := lo, hi
		for i <= j {
			for a[i] < p {
				i++
			}
			for a[j] > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		switch {
		case n <= j:
			hi = j
		case n >= i:
			lo = i
		default:
			return a[n]
		}
	}
	return a[n]
}

// processEmitting is Kaldi's ProcessEmitting for frame: tokens of the
// previous frame within the cutoff propagate over emitting arcs into a new
// frame; it returns the cutoff for the non-emitting pass.
func (d *LatticeDecoder) processEmitting(dec Decodable, frame int) float32 {
	d.prevFront, d.front = d.front, d.prevFront[:0]
	d.newFrontier()
	d.frames = append(d.frames, newFrameToks())
	curCutoff, adaptiveBeam, best := d.getCutoff(d.prevFront)
	ll := d.tidLL
	dec.LogLikes(frame, ll)
	nextCutoff := inf32
	var costOffset float32
	if best != none {
		bt := &d.toks[best]
		costOffset = -bt.tot
		for _, a := range d.g.emitting(bt.state) {
			w := a.weight + costOffset - ll[a.ilabel] + bt.tot
			if w+adaptiveBeam < nextCutoff {
				nextCutoff = w + adaptiveBeam
			}
		}
	}
	d.costOffsets = append(d.costOffsets, costOffset)
	for _, t := range d.prevFront {
		cur := d.toks[t].tot
		if cur > curCutoff {
			continue
		}
		for _, a := range d.g.emitting(d.toks[t].state) {
			ac := costOffset - ll[a.ilabel]
			tot := cur + ac + a.weight
			if tot >= nextCutoff {
				continue
			}
			if tot+adaptiveBeam < nextCutoff {
				nextCutoff = tot + adaptiveBeam
			}
			nt, _ := d.findOrAdd(a.next, tot)
			d.toks[t].links = d.newLink(link{to: nt, ilabel: a.ilabel, olabel: a.olabel, graph: a.weight, ac: ac, next: d.toks[t].links})
		}
	}
	return nextCutoff
}

// processNonemitting is Kaldi's ProcessNonemitting: epsilon arcs within the
// newest frame, below cutoff, re-expanding a token whenever its cost drops.
func (d *LatticeDecoder) processNonemitting(cutoff float32, warn func(string, ...any)) {
	if len(d.front) == 0 && !d.warned {
		if warn != nil {
			warn("Error, no surviving tokens: frame is %d", len(d.frames)-2)
		}
		d.warned = true
	}
	d.queue = d.queue[:0]
	for _, t := range d.front {
		if d.g.hasEpsilons(d.toks[t].state) {
			d.queue = append(d.queue, t)
		}
	}
	for len(d.queue) > 0 {
		t := d.queue[len(d.queue)-1]
		d.queue = d.queue[:len(d.queue)-1]
		cur := d.toks[t].tot
		if cur >= cutoff {
			continue
		}
		d.deleteLinks(t)
		for _, a := range d.g.epsilons(d.toks[t].state) {
			tot := cur + a.weight
			if tot < cutoff {
				nt, changed := d.findOrAdd(a.next, tot)
				d.toks[t].links = d.newLink(link{to: nt, ilabel: 0, olabel: a.olabel, graph: a.weight, next: d.toks[t].links})
				if changed && d.g.hasEpsilons(a.next) {
					d.queue = append(d.queue, nt)
				}
			}
		}
	}
}

// pruneForwardLinks is Kaldi's PruneForwardLinks for the tokens of frame f
// (a "frame plus one" index): links whose extra cost exceeds the lattice beam
// are removed and the tokens' extra costs recomputed until they change by no
// more than delta.
func (d *LatticeDecoder) pruneForwardLinks(f int, delta float32, warn func(string, ...any)) (extraChanged, linksPruned bool) {
	if d.frames[f].head == none && !d.warned {
		if warn != nil {
			warn("No tokens alive [doing pruning].. warning first time only for each utterance")
		}
		d.warned = true
	}
	// Kaldi repeats the pass until no extra cost moves by more than delta,
	// because epsilon links within the frame need not go from later to
	// earlier tokens of the list. A pass in which every same-frame link led
	// to a token already recomputed in that pass would reproduce exactly the
	// same values if repeated, so the repetition is skipped then (the result
	// is identical to Kaldi's loop, which would stop after that repeat).
	changed := true
	for changed {
		changed = false
		d.passStamp++
		stale := false
		for t := d.frames[f].head; t != none; t = d.toks[t].next {
			tk := &d.toks[t]
			tokExtra := inf32
			prev := int32(none)
			for l := tk.links; l != none; {
				lk := &d.links[l]
				if lk.ilabel == 0 && d.passOf[lk.to] != d.passStamp {
					stale = true
				}
				nt := &d.toks[lk.to]
				linkExtra := nt.extra + ((tk.tot + lk.ac + lk.graph) - nt.tot)
				if linkExtra > d.latBeam || linkExtra != linkExtra {
					next := lk.next
					if prev != none {
						d.links[prev].next = next
					} else {
						tk.links = next
					}
					lk.next = d.freeLink
					d.freeLink = l
					l = next
					linksPruned = true
					continue
				}
				if linkExtra < 0 {
					linkExtra = 0
				}
				if linkExtra < tokExtra {
					tokExtra = linkExtra
				}
				prev = l
				l = lk.next
			}
			if absf(tokExtra-tk.extra) > delta {
				changed = true
			}
			tk.extra = tokExtra
			d.passOf[t] = d.passStamp
		}
		if changed {
			extraChanged = true
		}
		if !stale {
			break
		}
	}
	return
}

// absf is fabs, except that NaN (from inf − inf) gives 0: Kaldi's test
// fabs(NaN) > delta is false.
func absf(x float32) float32 {
	if x != x {
		return 0
	}
	if x < 0 {
		return -x
	}
	return x
}

// pruneTokensForFrame deletes the tokens of frame f whose extra cost is
// infinite (no surviving forward link), as Kaldi's PruneTokensForFrame.
func (d *LatticeDecoder) pruneTokensForFrame(f int) {
	prev := int32(none)
	for t := d.frames[f].head; t != none; {
		next := d.toks[t].next
		if d.toks[t].extra == inf32 {
			if prev == none {
				d.frames[f].head = next
			} else {
				d.toks[prev].next = next
			}
			d.deleteLinks(t)
			d.deleteToken(t)
		} else {
			prev = t
		}
		t = next
	}
}

// pruneActiveTokens is Kaldi's PruneActiveTokens: periodic pruning of links
// and tokens of all frames but the newest, going backwards, only where
// something may have changed.
func (d *LatticeDecoder) pruneActiveTokens(delta float32, warn func(string, ...any)) {
	cur := d.NumFramesDecoded()
	for f := cur - 1; f >= 0; f-- {
		if d.frames[f].mustPruneLinks {
			extraChanged, linksPruned := d.pruneForwardLinks(f, delta, warn)
			if extraChanged && f > 0 {
				d.frames[f-1].mustPruneLinks = true
			}
			if linksPruned {
				d.frames[f].mustPruneTk = true
			}
			d.frames[f].mustPruneLinks = false
		}
		if f+1 < cur && d.frames[f+1].mustPruneTk {
			d.pruneTokensForFrame(f + 1)
			d.frames[f+1].mustPruneTk = false
		}
	}
}
