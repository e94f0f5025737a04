package search

import (
	"errors"
	"math"
	"math/bits"
	"unsafe"
)

const none = -1

// prefetchDistance is how many tokens ahead processEmitting touches the
// graph (see there).
const prefetchDistance = 8

// token is Kaldi's LatticeFasterDecoder Token: the best cost of reaching this
// (frame, state), the extra cost (how much worse than the best path the best
// path through it is, known after pruning) and its forward links.
//
// Tokens live in their frame's slab (frameToks.toks) in creation order, so a
// token is named by its frame and its index there; Kaldi's per-frame list,
// newest token first, is the slab read backwards. Deleting tokens compacts
// the slab, keeping that order.
//
// The two costs live apart, in a parallel slab of tokCost (hot/cold split):
// the lattice pruning reads them at the target of every link, in random
// order, and the beam test reads the costs alone; 8 bytes a token keep a
// frame's costs in the second-level cache where the 28-byte token did not.
type token struct {
	state int32 // graph state
	// The forward links, as ranges of the frame's link slab: epsilon links
	// (to tokens of the same frame) and emitting links (to the next frame).
	// Kaldi's list holds both, newest first: the emitting links backwards,
	// then the epsilon links backwards.
	eps, emit span
}

// tokCost is a token's best cost (tot) and extra cost, Kaldi's tot_cost and
// extra_cost.
type tokCost struct{ tot, extra float32 }

// span is the half-open range [lo, hi) of a frame's link slab.
type span struct{ lo, hi int32 }

// link is a forward link: an arc of the state-level lattice. to is a token
// index in the same frame (an epsilon link) or in the next frame (an
// emitting link); arc is the graph arc it follows, in Graph.eps or
// Graph.emit respectively, which gives its labels when the lattice is read
// out. 16 bytes, where the labels themselves made it 20: pruning streams
// through every link of a frame several times.
type link struct {
	to, arc   int32
	graph, ac float32
}

// frameToks is one frame's tokens and the forward links leaving them, with
// Kaldi's TokenList pruning flags.
type frameToks struct {
	toks                        []token
	costs                       []tokCost // parallel to toks
	links                       []link
	mustPruneLinks, mustPruneTk bool
	// narrowToks and narrowLinks mark slabs swapped for narrow ones after
	// pruning (see shrinkToks, shrinkLinks).
	narrowToks, narrowLinks bool
}

// slabPools keeps the slabs of finished frames for reuse: wide ones (a frame
// as the search built it) for new frames, narrow ones (sized for what
// survived the lattice pruning) for pruned frames. Without the narrow swap,
// every frame of an utterance would keep the memory of its widest moment.
// Narrow slabs never grow once filled, so they come in power-of-two size
// classes: any slab of a class fits any request of that class, and decoding
// the same utterances again takes exactly the slabs it returned.
type slabPools struct {
	wideToks  [][]token
	wideCosts [][]tokCost
	wideLinks [][]link
	// Running averages of a complete frame's tokens and links over the
	// last few hundred frames: a wide slab grown by a rare frame far above
	// them is left to the collector rather than kept (each pooled slab
	// would otherwise end up as large as the widest frame ever seen). A
	// short average (16 frames) swung enough within an utterance to refuse
	// ordinary slabs, which the next frames then had to allocate again.
	avgToks, avgLinks float64
	narrowToks        sizeClasses[token]
	narrowCosts       sizeClasses[tokCost]
	narrowLinks       sizeClasses[link]
}

func pop[T any](p *[][]T) []T {
	n := len(*p)
	if n == 0 {
		return nil
	}
	s := (*p)[n-1]
	(*p)[n-1] = nil // the pool must not keep a slab alive once given out
	*p = (*p)[:n-1]
	return s[:0]
}

// putWideToks pools a frame's token and cost slabs together (or neither),
// so that the two pools stay in step and pushFrame gets back pairs that
// served one frame.
func (d *LatticeDecoder) putWideToks(s []token, c []tokCost) {
	if limit := 4*d.pools.avgToks + 4096; float64(cap(s)) <= limit && float64(cap(c)) <= limit {
		d.pools.wideToks = append(d.pools.wideToks, s[:0])
		d.pools.wideCosts = append(d.pools.wideCosts, c[:0])
	}
}

// popWideToks takes from the pools the most recently pooled token and cost
// slabs with room for n tokens, or returns nil ones. Taking the newest one
// whatever its size threw away (and allocated anew) a slab too small for
// the frame at hand a tenth of the time on benchmark (b), where a larger
// one further down the pool would have served.
func (d *LatticeDecoder) popWideToks(n int) ([]token, []tokCost) {
	p := &d.pools
	for i := len(p.wideToks) - 1; i >= 0; i-- {
		if cap(p.wideToks[i]) >= n && cap(p.wideCosts[i]) >= n {
			t, c := p.wideToks[i], p.wideCosts[i]
			last := len(p.wideToks) - 1
			p.wideToks[i], p.wideCosts[i] = p.wideToks[last], p.wideCosts[last]
			p.wideToks[last], p.wideCosts[last] = nil, nil
			p.wideToks, p.wideCosts = p.wideToks[:last], p.wideCosts[:last]
			return t[:0], c[:0]
		}
	}
	return nil, nil
}

// popWideLinks is popWideToks for a link slab with room for n links.
func (d *LatticeDecoder) popWideLinks(n int) []link {
	p := &d.pools
	for i := len(p.wideLinks) - 1; i >= 0; i-- {
		if cap(p.wideLinks[i]) >= n {
			l := p.wideLinks[i]
			last := len(p.wideLinks) - 1
			p.wideLinks[i] = p.wideLinks[last]
			p.wideLinks[last] = nil
			p.wideLinks = p.wideLinks[:last]
			return l[:0]
		}
	}
	return nil
}

func (d *LatticeDecoder) putWideLinks(s []link) {
	if float64(cap(s)) <= 4*d.pools.avgLinks+4096 {
		d.pools.wideLinks = append(d.pools.wideLinks, s[:0])
	}
}

// sizeClasses pools narrow slabs in power-of-two size classes, holding at
// most narrowPoolMax elements in all: slabs freed beyond that (after a
// pruned frame shrinks again, or an unusually long utterance) are left to
// the collector.
type sizeClasses[T any] struct {
	c    [64][][]T
	held int
}

const narrowPoolMax = 1 << 20

// pop returns an empty slab with room for n elements.
func (p *sizeClasses[T]) pop(n int) []T {
	c := bits.Len(uint(n))
	if s := pop(&p.c[c]); s != nil {
		p.held -= cap(s)
		return s
	}
	return make([]T, 0, 1<<c)
}

// push returns a slab to its class (the largest power of two its capacity
// holds).
func (p *sizeClasses[T]) push(s []T) {
	if cap(s) == 0 || p.held+cap(s) > narrowPoolMax {
		return
	}
	c := bits.Len(uint(cap(s))) - 1
	p.c[c] = append(p.c[c], s[:0])
	p.held += cap(s)
}

// frontierTable is the state → token table of the frame being built: entry
// s is stamp<<tokBits | token index, valid when its stamp is the current
// one. A token index is below the number of states (a frame has at most a
// token per state), so tokBits = bits.Len(states) holds it and the rest of
// the 32 bits the stamp: half the size of a (stamp, index) pair of words,
// so more of the table stays in cache on a large graph. When the stamp
// runs out the table is cleared for real.
type frontierTable struct {
	entries          []uint32
	tokBits, tokMask uint32
	stamp, maxStamp  uint32
}

func newFrontierTable(states int) frontierTable {
	b, maxStamp := frontierBits(states)
	return frontierTable{entries: make([]uint32, states), tokBits: b, tokMask: 1<<b - 1, maxStamp: maxStamp}
}

// frontierBits splits an entry of the frontier table for a graph of states.
func frontierBits(states int) (tokBits, maxStamp uint32) {
	b := uint32(bits.Len32(uint32(states)))
	return b, 1<<(32-b) - 1
}

// LatticeDecoder is Kaldi's LatticeFasterDecoder over a Graph. One decoder
// decodes utterances one after another, reusing its memory; it is not safe
// for concurrent use.
type LatticeDecoder struct {
	g    *Graph
	opts Options
	warn func(string, ...any) // Decode's, for FinalResult's determinization (nil: none)
	beam, latBeam, beamDelta,
	pruneDelta float32

	frames      []frameToks
	pools       slabPools
	costOffsets []float32
	numToks     int

	// The frontier (Kaldi's toks_) is the newest frame's slab; state → token
	// lookup in it goes through a dense table stamped with a generation
	// number, so starting a frame is O(1) and allocates nothing.
	stateTok frontierTable

	queue   []int32 // non-emitting queue (token indices of the newest frame)
	remap   []int32 // scratch of pruneTokensForFrame
	costs   []float32
	tidLL   []float32
	warned  bool
	final   finalInfo
	decoded bool // FinalizeDecoding ran
	stats   Stats
	// pruneCalls counts the periodic prunings of the utterance (see
	// pruneActiveTokens).
	pruneCalls int
	// kaldiPruning makes periodic pruning follow Kaldi's schedule exactly
	// (every interval, as deep as changes propagate, passes repeated):
	// tests compare the lattices of both schedules.
	kaldiPruning bool
}

// Stats counts the search's work on the last decoded utterance, to compare
// with other decoders per frame (tokens, arcs, links) and to see where the
// lattice pruning spends its time.
type Stats struct {
	Frames int
	// Tokens is the number of tokens created, summed over frames.
	Tokens int64
	// EmittingArcs and EpsilonArcs are the arcs expanded from tokens within
	// the cutoff; Links is the number of forward links created.
	EmittingArcs, EpsilonArcs, Links int64
	// PruneFrames is the number of frames whose forward links periodic and
	// final pruning processed; PrunePasses the passes over them;
	// PruneTokenVisits the tokens those passes visited.
	PruneFrames, PrunePasses, PruneTokenVisits int64
	// PruneLinkVisits is the number of links those passes visited.
	PruneLinkVisits int64
	// PeakTokens and PeakLinks are the most tokens and links (slab
	// lengths, dropped expansions included) held by all frames together,
	// sampled before and after each periodic pruning: the decoder's memory
	// high mark.
	PeakTokens, PeakLinks int64
}

// Stats returns the work counts of the last decoded utterance.
func (d *LatticeDecoder) Stats() Stats { return d.stats }

type finalInfo struct {
	// costs[i] is the final cost of token i of the last frame (+Inf where
	// its state is not final); any reports whether some token is final.
	costs    []float32
	any      bool
	relative float32
	best     float32
}

// NewLatticeDecoder returns a decoder for g with opts.
func NewLatticeDecoder(g *Graph, opts Options) *LatticeDecoder {
	d := &LatticeDecoder{g: g, opts: opts,
		beam: float32(opts.Beam), latBeam: float32(opts.LatticeBeam), beamDelta: float32(opts.BeamDelta),
		stateTok: newFrontierTable(g.NumStates())}
	d.pruneDelta = float32(opts.LatticeBeam * opts.PruneScale)
	return d
}

// reset forgets the previous utterance, keeping the memory: the frames'
// slabs go back to the pool so that frame i of the next utterance gets the
// slab frame i had, and a steady stream of similar utterances allocates
// nothing.
func (d *LatticeDecoder) reset() {
	for i := len(d.frames) - 1; i >= 0; i-- {
		f := &d.frames[i]
		if f.narrowToks {
			d.pools.narrowToks.push(f.toks)
			d.pools.narrowCosts.push(f.costs)
		} else {
			d.putWideToks(f.toks, f.costs)
		}
		if f.narrowLinks {
			d.pools.narrowLinks.push(f.links)
		} else {
			d.putWideLinks(f.links)
		}
	}
	d.frames = d.frames[:0]
	d.numToks = 0
	d.costOffsets = d.costOffsets[:0]
	d.warned = false
	d.final.any, d.final.relative, d.final.best = false, 0, 0
	d.final.costs = d.final.costs[:0]
	d.decoded = false
	d.stats = Stats{}
	d.pruneCalls = 0
	d.newFrontier()
}

// pushFrame starts a new frame (the new frontier). Kaldi's TokenList starts
// with both pruning flags set.
func (d *LatticeDecoder) pushFrame() {
	if n := len(d.frames); n >= 2 {
		p := &d.pools
		p.avgToks += (float64(len(d.frames[n-1].toks)) - p.avgToks) / 256
		p.avgLinks += (float64(len(d.frames[n-2].links)) - p.avgLinks) / 256
	}
	// The new frame gets pooled slabs with room for as much as the newest
	// complete frame used. Without one (the pools are empty on a decoder's
	// first long utterance, or hold only smaller slabs), a slab is made
	// with room for a little more than that frame and at least twice the
	// average one, rather than grown by doubling (copying) while the frame
	// fills; sized for the newest frame alone, slabs made on small frames
	// would keep being replaced on large ones.
	var nt, nl int
	if n := len(d.frames); n >= 2 {
		nt, nl = len(d.frames[n-1].toks), len(d.frames[n-2].links)
	}
	var f frameToks
	f.toks, f.costs = d.popWideToks(nt)
	f.links = d.popWideLinks(nl)
	if n := len(d.frames); n >= 2 {
		if f.toks == nil {
			f.toks = make([]token, 0, max(nt+nt/4, int(2*d.pools.avgToks))+16)
			f.costs = make([]tokCost, 0, max(nt+nt/4, int(2*d.pools.avgToks))+16)
		}
		if f.links == nil {
			f.links = make([]link, 0, max(nl+nl/4, int(2*d.pools.avgLinks))+16)
		}
	}
	f.mustPruneLinks, f.mustPruneTk = true, true
	d.frames = append(d.frames, f)
	d.newFrontier()
}

// newFrontier invalidates the state → token table in O(1).
func (d *LatticeDecoder) newFrontier() {
	ft := &d.stateTok
	ft.stamp++
	if ft.stamp > ft.maxStamp { // wrapped: clear for real
		clear(ft.entries)
		ft.stamp = 1
	}
}

// findOrAdd is Kaldi's FindOrAddToken on the frontier for the newest frame:
// it returns the token of state, creating it with cost tot, or lowering its
// cost to tot; changed reports whether it was created or improved.
func (d *LatticeDecoder) findOrAdd(state int32, tot float32) (tok int32, changed bool) {
	f := &d.frames[len(d.frames)-1]
	ft := &d.stateTok
	e := &ft.entries[state]
	if *e>>ft.tokBits == ft.stamp {
		tok = int32(*e & ft.tokMask)
		tc := &f.costs[tok]
		if tc.tot > tot {
			tc.tot = tot
			return tok, true
		}
		return tok, false
	}
	tok = int32(len(f.toks))
	f.toks = append(f.toks, token{state: state})
	f.costs = append(f.costs, tokCost{tot: tot})
	*e = ft.stamp<<ft.tokBits | uint32(tok)
	d.numToks++
	d.stats.Tokens++
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
	d.warn = warn
	d.pushFrame()
	d.findOrAdd(d.g.Start, 0)
	d.processNonemitting(d.beam, warn)
	for frame := 0; frame < dec.NumFrames(); frame++ {
		if frame%d.opts.PruneInterval == 0 {
			d.pruneActiveTokens(d.pruneDelta, warn)
		}
		d.stats.Frames++
		cutoff := d.processEmitting(dec, frame)
		d.processNonemitting(cutoff, warn)
	}
	d.finalize(warn)
	if len(d.frames[len(d.frames)-1].toks) == 0 {
		return ErrNoTokens
	}
	return nil
}

// NumFramesDecoded is the number of frames processed.
func (d *LatticeDecoder) NumFramesDecoded() int { return len(d.frames) - 1 }

// getCutoff is Kaldi's GetCutoff over the frontier: the cost cutoff from the
// beam and the max-active/min-active limits, the adaptive beam, and the best
// token.
func (d *LatticeDecoder) getCutoff(front []tokCost) (cutoff, adaptiveBeam float32, best int32) {
	bestW := inf32
	best = none
	maxActive, minActive := d.opts.MaxActive, d.opts.MinActive
	if maxActive == math.MaxInt32 && minActive == 0 {
		for i := range front {
			if w := front[i].tot; w < bestW {
				bestW, best = w, int32(i)
			}
		}
		return bestW + d.beam, d.beam, best
	}
	if len(front) <= maxActive && len(front) > minActive {
		// No max-active cut. The min-active cutoff (the minActive-th
		// smallest cost) only matters when it lies beyond the beam, that is
		// when at most minActive costs are within it: counting them is one
		// pass, where the selection below is several.
		for i := range front {
			if w := front[i].tot; w < bestW {
				bestW, best = w, int32(i)
			}
		}
		beamCutoff := bestW + d.beam
		within := 0
		for i := range front {
			if front[i].tot <= beamCutoff {
				within++
			}
		}
		if within > minActive {
			return beamCutoff, d.beam, best
		}
		bestW, best = inf32, none
	}
	d.costs = d.costs[:0]
	for i := range front {
		w := front[i].tot
		d.costs = append(d.costs, w)
		if w < bestW {
			bestW, best = w, int32(i)
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
// Both decoders use it: the lattice decoder's costs are float32, the
// faster decoder's float64.
func nthElement[T float32 | float64](a []T, n int) T {
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
// frame; it returns the cutoff for the non-emitting pass. The previous
// frame's tokens are visited in creation order (Kaldi walks its hash list).
func (d *LatticeDecoder) processEmitting(dec Decodable, frame int) float32 {
	d.pushFrame()
	prev := &d.frames[len(d.frames)-2]
	ptoks := prev.toks
	pcosts := prev.costs
	curCutoff, adaptiveBeam, best := d.getCutoff(pcosts)
	ll := d.tidLL
	dec.LogLikes(frame, ll)
	nextCutoff := inf32
	var costOffset float32
	if best != none {
		btot := pcosts[best].tot
		costOffset = -btot
		for _, a := range d.g.emitting(ptoks[best].state) {
			w := a.weight + costOffset - ll[a.ilabel] + btot
			if w+adaptiveBeam < nextCutoff {
				nextCutoff = w + adaptiveBeam
			}
		}
	}
	d.costOffsets = append(d.costOffsets, costOffset)
	// The loop below is findOrAdd inlined, with the new frame's slab, the
	// frontier table and the graph's arrays in locals: this is the
	// innermost loop of the decoder, and the compiler does not inline
	// findOrAdd or keep the fields it reads through d in registers.
	links := prev.links
	f := &d.frames[len(d.frames)-1]
	ntoks, ncosts := f.toks, f.costs
	ft := d.stateTok
	entries, tokMask, stamp := ft.entries, ft.tokMask, ft.stamp<<ft.tokBits
	emit, first := d.g.emit, d.g.first
	var arcs int64
	for t := range ptoks {
		// Software prefetch: the graph look-ups of a token miss the cache
		// on a large graph, and a mispredicted branch in the arc loop (new
		// token or not, within the cutoff or not) stops the processor from
		// running ahead to the next token's. So the state record of the
		// token prefetchDistance ahead is fetched, the arcs of the one half
		// as far (its state record is in the cache by then) and the
		// frontier entry of the first arc's target of the one a quarter as
		// far, as prefetch instructions, which unlike plain loads do not
		// hold up the search when they miss.
		pa, pb, pc := unsafe.Pointer(&first[0]), unsafe.Pointer(&first[0]), unsafe.Pointer(&first[0])
		if u := t + prefetchDistance; u < len(ptoks) {
			pa = unsafe.Pointer(&first[ptoks[u].state])
		}
		if u := t + prefetchDistance/2; u < len(ptoks) {
			if i := first[ptoks[u].state].emit; int(i) < len(emit) {
				pb = unsafe.Pointer(&emit[i])
			}
		}
		if u := t + prefetchDistance/4; u < len(ptoks) {
			if i := first[ptoks[u].state].emit; int(i) < len(emit) {
				pc = unsafe.Pointer(&entries[emit[i].next])
			}
		}
		prefetch3(pa, pb, pc)
		tk := &ptoks[t]
		cur := pcosts[t].tot
		if cur > curCutoff {
			continue
		}
		lo, hi := first[tk.state].emit, first[tk.state+1].emit
		arcs += int64(hi - lo)
		linkLo := int32(len(links))
		for ai := lo; ai < hi; ai++ {
			a := &emit[ai]
			ac := costOffset - ll[a.ilabel]
			tot := cur + ac + a.weight
			if tot >= nextCutoff {
				continue
			}
			if tot+adaptiveBeam < nextCutoff {
				nextCutoff = tot + adaptiveBeam
			}
			e := &entries[a.next]
			var nt int32
			if *e&^tokMask == stamp {
				nt = int32(*e & tokMask)
				if nk := &ncosts[nt]; nk.tot > tot {
					nk.tot = tot
				}
			} else {
				nt = int32(len(ntoks))
				ntoks = append(ntoks, token{state: a.next})
				ncosts = append(ncosts, tokCost{tot: tot})
				*e = stamp | uint32(nt)
			}
			links = append(links, link{to: nt, arc: ai, graph: a.weight, ac: ac})
		}
		tk.emit = span{linkLo, int32(len(links))}
	}
	d.numToks += len(ntoks) - len(f.toks)
	d.stats.Tokens += int64(len(ntoks) - len(f.toks))
	f.toks, f.costs = ntoks, ncosts
	d.stats.EmittingArcs += arcs
	d.stats.Links += int64(len(links) - len(prev.links))
	prev.links = links
	return nextCutoff
}

// processNonemitting is Kaldi's ProcessNonemitting: epsilon arcs within the
// newest frame, below cutoff, re-expanding a token whenever its cost drops
// (its earlier epsilon links are then dropped: left unused in the slab).
func (d *LatticeDecoder) processNonemitting(cutoff float32, warn func(string, ...any)) {
	f := &d.frames[len(d.frames)-1]
	if len(f.toks) == 0 && !d.warned {
		if warn != nil {
			warn("Error, no surviving tokens: frame is %d", len(d.frames)-2)
		}
		d.warned = true
	}
	// As in processEmitting, the token look-up is inlined and the slabs,
	// the frontier table and the graph arrays are locals.
	g := d.g
	epsArcs, first, epsBits := g.eps, g.first, g.epsBits
	ft := d.stateTok
	entries, tokMask, stamp := ft.entries, ft.tokMask, ft.stamp<<ft.tokBits
	toks, costs, links, queue := f.toks, f.costs, f.links, d.queue[:0]
	for t := range toks {
		if s := uint32(toks[t].state); epsBits[s/64]&(1<<(s%64)) != 0 {
			queue = append(queue, int32(t))
		}
	}
	created := len(toks)
	var arcs int64
	for len(queue) > 0 {
		t := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		cur := costs[t].tot
		if cur >= cutoff {
			continue
		}
		s := toks[t].state
		lo, hi := first[s].eps, first[s+1].eps
		arcs += int64(hi - lo)
		linkLo := int32(len(links))
		for ai := lo; ai < hi; ai++ {
			a := &epsArcs[ai]
			tot := cur + a.weight
			if tot >= cutoff {
				continue
			}
			e := &entries[a.next]
			var nt int32
			changed := true
			if *e&^tokMask == stamp {
				nt = int32(*e & tokMask)
				if nk := &costs[nt]; nk.tot > tot {
					nk.tot = tot
				} else {
					changed = false
				}
			} else {
				nt = int32(len(toks))
				toks = append(toks, token{state: a.next})
				costs = append(costs, tokCost{tot: tot})
				*e = stamp | uint32(nt)
			}
			links = append(links, link{to: nt, arc: ai, graph: a.weight})
			if n := uint32(a.next); changed && epsBits[n/64]&(1<<(n%64)) != 0 {
				queue = append(queue, nt)
			}
		}
		toks[t].eps = span{linkLo, int32(len(links))}
	}
	d.numToks += len(toks) - created
	d.stats.Tokens += int64(len(toks) - created)
	d.stats.EpsilonArcs += arcs
	d.stats.Links += int64(len(links) - len(f.links))
	f.toks, f.costs, f.links, d.queue = toks, costs, links, queue
}
