package search

import "math"

// pruneLinks is the inner step of Kaldi's PruneForwardLinks for one run of
// links of a token of best cost cost (its epsilon or its emitting links,
// whose targets' costs are in dst): it drops the links whose extra cost exceeds the lattice beam or is
// NaN, keeping the others in order at the front of the run, and returns the
// run's new end and the lowest extra cost of a kept link (clamped at 0), or
// tokExtra if lower. The caller also learns the lowest target index of the
// run (before pruning): the passes visit tokens from the highest index down,
// so an epsilon link to index ≤ the token's own leads to a token not yet
// recomputed in the current pass.
func (d *LatticeDecoder) pruneLinks(links []link, sp span, cost float32, dst []tokCost, tokExtra float32) (hi int32, extra float32, pruned bool, minTo int32) {
	w := sp.lo
	minTo = int32(math.MaxInt32)
	latBeam := d.latBeam
	// Branch-free, as whether a link survives is data (about as often yes
	// as no): every link is written to its slot (w ≤ l) and w advances when
	// it survives; the lowest extra cost is taken on the bit patterns,
	// which order non-negative floats (+Inf included) as the floats, with
	// integer conditional moves.
	best := math.Float32bits(tokExtra)
	for l := sp.lo; l < sp.hi; l++ {
		lk := links[l]
		minTo = min(minTo, lk.to)
		nt := &dst[lk.to]
		linkExtra := nt.extra + ((cost + lk.ac + lk.graph) - nt.tot)
		keep := linkExtra <= latBeam // false for NaN
		// k is 1 for a kept link (SETcc, no branch).
		var k uint32
		if keep {
			k = 1
		}
		links[w] = lk
		w += int32(k)
		if linkExtra <= 0 { // -0 too: its bits would order it above +Inf
			linkExtra = 0
		}
		mask := -k // all ones when kept
		best = min(best, math.Float32bits(linkExtra)&mask|infBits&^mask)
	}
	tokExtra = math.Float32frombits(best)
	pruned = w != sp.hi
	return w, tokExtra, pruned, minTo
}

// pruneForwardLinks is Kaldi's PruneForwardLinks for the tokens of frame f
// (a "frame plus one" index): links whose extra cost exceeds the lattice beam
// are removed and the tokens' extra costs recomputed until they change by no
// more than delta. Tokens are visited newest first, as Kaldi's list.
//
// With onePass (periodic pruning) the pass is not repeated: a token whose
// epsilon link leads to a token recomputed later in the pass keeps an
// extra cost computed from the old value. Extra costs only grow, so that
// value is still a lower bound of the final one, and the links it prunes
// (lower bound above the lattice beam) are links the final pruning, which
// repeats to the exact fixed point, prunes too: the lattice is the same.
func (d *LatticeDecoder) pruneForwardLinks(f int, delta float32, onePass bool, warn func(string, ...any)) (extraChanged, linksPruned bool) {
	fr := &d.frames[f]
	if len(fr.toks) == 0 && !d.warned {
		if warn != nil {
			warn("No tokens alive [doing pruning].. warning first time only for each utterance")
		}
		d.warned = true
	}
	toks, costs, links := fr.toks, fr.costs, fr.links
	var next []tokCost
	if f+1 < len(d.frames) {
		next = d.frames[f+1].costs
	}
	d.stats.PruneFrames++
	// Kaldi repeats the pass until no extra cost moves by more than delta,
	// because epsilon links within the frame need not go from later to
	// earlier tokens of the list. A pass in which every same-frame link led
	// to a token already recomputed in that pass would reproduce exactly the
	// same values if repeated, so the repetition is skipped then (the result
	// is identical to Kaldi's loop, which would stop after that repeat).
	// In a repeated pass a token without epsilon links is skipped: its links
	// lead to the next frame, whose extra costs this call does not change, so
	// Kaldi's repeat computes the same value and prunes nothing more.
	changed := true
	for pass := 0; changed; pass++ {
		changed = false
		d.stats.PrunePasses++
		stale := false
		for t := len(toks) - 1; t >= 0; t-- {
			tk, tc := &toks[t], &costs[t]
			hasEps := tk.eps.hi > tk.eps.lo
			if pass > 0 && !hasEps {
				continue
			}
			d.stats.PruneTokenVisits++
			tokExtra := inf32
			var pruned bool
			d.stats.PruneLinkVisits += int64(tk.emit.hi-tk.emit.lo) + int64(tk.eps.hi-tk.eps.lo)
			if tk.emit.hi > tk.emit.lo {
				tk.emit.hi, tokExtra, pruned, _ = d.pruneLinks(links, tk.emit, tc.tot, next, tokExtra)
				linksPruned = linksPruned || pruned
			}
			if hasEps {
				var minTo int32
				tk.eps.hi, tokExtra, pruned, minTo = d.pruneLinks(links, tk.eps, tc.tot, costs, tokExtra)
				linksPruned = linksPruned || pruned
				stale = stale || minTo <= int32(t)
			}
			if absf(tokExtra-tc.extra) > delta {
				changed = true
			}
			tc.extra = tokExtra
		}
		if changed {
			extraChanged = true
		}
		if !stale || onePass {
			break
		}
	}
	if linksPruned {
		d.compactLinks(f)
	}
	return
}

var infBits = math.Float32bits(inf32)

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

// compactLinks squeezes the unused parts of frame f's link slab (pruned
// links, dropped epsilon expansions, deleted tokens' links) out once they
// outweigh the live links, keeping every token's runs in order.
func (d *LatticeDecoder) compactLinks(f int) {
	fr := &d.frames[f]
	live := 0
	for i := range fr.toks {
		tk := &fr.toks[i]
		live += int(tk.eps.hi-tk.eps.lo) + int(tk.emit.hi-tk.emit.lo)
	}
	if len(fr.links) < 2*live+64 {
		return
	}
	// Copy the live runs straight into a narrow slab (they fit: a class
	// holds more than the size asked for); the wide one serves a new frame.
	// Runs are a link or two: copied by hand, as a call of memmove per
	// run costs more than the copy.
	old := fr.links
	buf := d.pools.narrowLinks.pop(live)[:live]
	w := int32(0)
	for i := range fr.toks {
		tk := &fr.toks[i]
		lo := w
		for l := tk.eps.lo; l < tk.eps.hi; l++ {
			buf[w] = old[l]
			w++
		}
		tk.eps = span{lo, w}
		lo = w
		for l := tk.emit.lo; l < tk.emit.hi; l++ {
			buf[w] = old[l]
			w++
		}
		tk.emit = span{lo, w}
	}
	if fr.narrowLinks {
		d.pools.narrowLinks.push(old)
	} else {
		d.putWideLinks(old)
	}
	fr.links = buf
	fr.narrowLinks = true
}

// pruneTokensForFrame deletes the tokens of frame f whose extra cost is
// infinite (no surviving forward link), as Kaldi's PruneTokensForFrame. The
// slab is compacted in order, and the links into frame f (the previous
// frame's emitting links, frame f's epsilon links) renumbered; by Kaldi's
// invariant none leads to a deleted token, but one that did would be
// dropped rather than left dangling.
//
// Deleting is deferred (unless force) while fewer than a quarter of the
// tokens are dead: renumbering walks every link into the frame, and
// periodic pruning after the first usually kills only a few tokens at a
// time. A dead token has no links and extra cost +Inf, so pruning passes
// leave it as it is; FinalizeDecoding forces the deletion, so the lattice
// is the one eager deletion gives.
func (d *LatticeDecoder) pruneTokensForFrame(f int, force bool) {
	fr := &d.frames[f]
	if !force {
		dead := 0
		for t := range fr.costs {
			if fr.costs[t].extra == inf32 {
				dead++
			}
		}
		if 4*dead < len(fr.toks) {
			return
		}
	}
	if cap(d.remap) < len(fr.toks) {
		d.remap = make([]int32, len(fr.toks), 2*len(fr.toks))
	}
	remap := d.remap[:len(fr.toks)]
	// The last frame's final costs are indexed like its tokens.
	fc := d.final.costs
	if f != len(d.frames)-1 || len(fc) != len(fr.toks) {
		fc = nil
	}
	n := int32(0)
	for t := range fr.toks {
		if fr.costs[t].extra == inf32 {
			remap[t] = none
			continue
		}
		remap[t] = n
		fr.toks[n] = fr.toks[t]
		fr.costs[n] = fr.costs[t]
		if fc != nil {
			fc[n] = fc[t]
		}
		n++
	}
	if fc != nil {
		d.final.costs = fc[:n]
	}
	if int(n) == len(fr.toks) {
		return
	}
	d.numToks -= len(fr.toks) - int(n)
	fr.toks, fr.costs = fr.toks[:n], fr.costs[:n]
	if cap(fr.toks) > 2*int(n)+64 {
		// As compactLinks: narrow slabs for what survived.
		old, oldCosts := fr.toks, fr.costs
		fr.toks = append(d.pools.narrowToks.pop(int(n)), old...)
		fr.costs = append(d.pools.narrowCosts.pop(int(n)), oldCosts...)
		if fr.narrowToks {
			d.pools.narrowToks.push(old)
			d.pools.narrowCosts.push(oldCosts)
		} else {
			d.putWideToks(old, oldCosts)
		}
		fr.narrowToks = true
	}
	for t := range fr.toks {
		renumber(fr.links, &fr.toks[t].eps, remap)
	}
	if f > 0 {
		pf := &d.frames[f-1]
		for t := range pf.toks {
			renumber(pf.links, &pf.toks[t].emit, remap)
		}
	}
}

// renumber maps the targets of the links in sp through remap, dropping links
// to deleted tokens.
func renumber(links []link, sp *span, remap []int32) {
	w := sp.lo
	for l := sp.lo; l < sp.hi; l++ {
		to := remap[links[l].to]
		if to == none {
			continue
		}
		links[w] = links[l]
		links[w].to = to
		w++
	}
	sp.hi = w
}

// pruneActiveTokens is Kaldi's PruneActiveTokens: periodic pruning of links
// and tokens of all frames but the newest, going backwards, only where
// something may have changed.
//
// Unlike Kaldi, only every pruneEvery-th call prunes (as deep as Kaldi's
// rule goes: while extra costs change); the others do nothing. Periodic
// pruning only frees memory: it removes links whose extra cost, a lower
// bound of the final one (extra costs only grow as frames are added),
// already exceeds the lattice beam, and FinalizeDecoding recomputes every
// extra cost exactly, so the lattice is the same however often frames are
// pruned. Kaldi's pass reaches back to the start of the utterance at almost
// every interval (a token dying is an extra-cost change of +Inf, and some
// token dies in nearly every frame), so the work grows with the square of
// the utterance's length, and on a large graph it outweighs the search.
// Pruning every fourth interval visits each frame's links about as often
// as it takes for their extra costs to become informative: on benchmark
// (b), against pruning the new frames at every interval and going deep at
// every fourth, it makes 22% fewer link and token visits for 5% more links
// and 9% more tokens held at the peak (sampled before each pruning);
// pruning every third or fifth interval held 29-42% more links.
func (d *LatticeDecoder) pruneActiveTokens(delta float32, warn func(string, ...any)) {
	d.samplePeak()
	d.pruneCalls++
	if !d.kaldiPruning && d.pruneCalls%pruneEvery != 0 {
		return
	}
	cur := d.NumFramesDecoded()
	for f := cur - 1; f >= 0; f-- {
		if d.frames[f].mustPruneLinks {
			extraChanged, linksPruned := d.pruneForwardLinks(f, delta, !d.kaldiPruning, warn)
			if extraChanged && f > 0 {
				d.frames[f-1].mustPruneLinks = true
			}
			if linksPruned {
				d.frames[f].mustPruneTk = true
			}
			d.frames[f].mustPruneLinks = false
		}
		if f+1 < cur && d.frames[f+1].mustPruneTk {
			d.pruneTokensForFrame(f+1, false)
			d.frames[f+1].mustPruneTk = false
		}
	}
	d.samplePeak()
}

// samplePeak updates the peak tokens and links held (Stats): called before
// and after each periodic pruning and before the final one.
func (d *LatticeDecoder) samplePeak() {
	var toks, links int64
	for f := range d.frames {
		toks += int64(len(d.frames[f].toks))
		links += int64(len(d.frames[f].links))
	}
	d.stats.PeakTokens = max(d.stats.PeakTokens, toks)
	d.stats.PeakLinks = max(d.stats.PeakLinks, links)
}

// pruneEvery is how many prune intervals pass between periodic prunings
// (see pruneActiveTokens).
const pruneEvery = 4
