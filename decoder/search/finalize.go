package search

import (
	"slices"

	"github.com/strode-asr/strode/decoder/lattice"
)

// computeFinalCosts is Kaldi's ComputeFinalCosts over the frontier: the
// final cost of every token (+Inf where its state is not final), how much
// the final costs worsen the best token (relative, +Inf when no final state
// is active), and the best cost including final costs (or without them when
// no token is final).
func (d *LatticeDecoder) computeFinalCosts() {
	fi := &d.final
	fr := &d.frames[len(d.frames)-1]
	toks, costs := fr.toks, fr.costs
	fi.costs = fi.costs[:0]
	fi.any = false
	best, bestFinal := inf32, inf32
	for i := range toks {
		fc := d.g.final[toks[i].state]
		c := costs[i].tot
		best = min(best, c)
		bestFinal = min(bestFinal, c+fc)
		fi.costs = append(fi.costs, fc)
		if fc != inf32 {
			fi.any = true
		}
	}
	if best == inf32 && bestFinal == inf32 {
		fi.relative = inf32
	} else {
		fi.relative = bestFinal - best
	}
	if bestFinal != inf32 {
		fi.best = bestFinal
	} else {
		fi.best = best
	}
}

// finalCost is the final cost of token i of the last frame as the final
// pruning and the raw lattice use it: 0 for every token when none is final.
func (d *LatticeDecoder) finalCost(i int) float32 {
	if !d.final.any {
		return 0
	}
	return d.final.costs[i]
}

// ReachedFinal reports whether a final state was active at the end (Kaldi's
// ReachedFinal: the final costs do not make every token impossible).
func (d *LatticeDecoder) ReachedFinal() bool { return d.final.relative != inf32 }

// finalize is Kaldi's FinalizeDecoding: prune the last frame's links with the
// final costs taken into account, then every frame backwards with delta 0.
func (d *LatticeDecoder) finalize(warn func(string, ...any)) {
	d.samplePeak()
	last := len(d.frames) - 1
	d.pruneForwardLinksFinal(last, warn)
	for f := last - 1; f >= 0; f-- {
		d.pruneForwardLinks(f, 0, false, warn)
		d.pruneTokensForFrame(f+1, true)
	}
	d.pruneTokensForFrame(0, true)
	d.decoded = true
}

// approxEqual is Kaldi's ApproxEqual(a, b, tol): relative to |a|+|b|, and
// never for an infinite or NaN difference.
func approxEqual(a, b, tol float32) bool {
	if a == b {
		return true
	}
	diff := a - b
	if diff < 0 {
		diff = -diff
	}
	if diff == inf32 || diff != diff {
		return false
	}
	return diff <= tol*(absf(a)+absf(b))
}

// pruneForwardLinksFinal is Kaldi's PruneForwardLinksFinal. The last
// frame's tokens have only epsilon links.
func (d *LatticeDecoder) pruneForwardLinksFinal(f int, warn func(string, ...any)) {
	fr := &d.frames[f]
	if len(fr.toks) == 0 && warn != nil {
		warn("No tokens alive at end of file")
	}
	d.computeFinalCosts()
	d.newFrontier()
	const delta = 1e-5
	toks, costs, links := fr.toks, fr.costs, fr.links
	d.stats.PruneFrames++
	changed := true
	for changed {
		changed = false
		d.stats.PrunePasses++
		d.stats.PruneTokenVisits += int64(len(toks))
		stale := false
		for t := len(toks) - 1; t >= 0; t-- {
			tk, tc := &toks[t], &costs[t]
			tokExtra := tc.tot + d.finalCost(t) - d.final.best
			if tk.eps.hi > tk.eps.lo {
				var minTo int32
				tk.eps.hi, tokExtra, _, minTo = d.pruneLinks(links, tk.eps, tc.tot, costs, tokExtra)
				stale = stale || minTo <= int32(t) // see pruneForwardLinks
			}
			if tokExtra > d.latBeam {
				tokExtra = inf32
			}
			if !approxEqual(tc.extra, tokExtra, delta) {
				changed = true
			}
			tc.extra = tokExtra
		}
		if !stale {
			break
		}
	}
}

// RawLattice returns the state-level lattice of the last decoded utterance,
// as Kaldi's GetRawLattice with final probabilities: a state per surviving
// token, numbered frame by frame and, within a frame, in topological order of
// the epsilon links (so the start is state 0 and every arc goes forward);
// arcs carry (transition-id, word, graph cost, acoustic cost) with the
// per-frame offsets removed; the last frame's tokens are final with their
// graph final cost, or with cost 0 when no final state was reached.
// The costs are those of the search, i.e. with the acoustic scale applied.
func (d *LatticeDecoder) RawLattice() (*lattice.Lattice, error) {
	nf := len(d.frames) - 1
	lat := &lattice.Lattice{Start: lattice.NoState}
	// stateOf[base[f]+i] is the lattice state of token i of frame f.
	base := make([]int32, nf+2)
	for f := 0; f <= nf; f++ {
		if len(d.frames[f].toks) == 0 {
			return nil, ErrNoTokens
		}
		base[f+1] = base[f] + int32(len(d.frames[f].toks))
	}
	stateOf := make([]int32, base[nf+1])
	order := make([][]int32, nf+1)
	for f := 0; f <= nf; f++ {
		order[f] = d.topSortFrame(f)
		for _, t := range order[f] {
			stateOf[base[f]+t] = lat.AddState()
		}
	}
	lat.Start = 0
	for f := 0; f <= nf; f++ {
		fr := &d.frames[f]
		for _, t := range order[f] {
			st := &lat.States[stateOf[base[f]+t]]
			tk := &fr.toks[t]
			// Kaldi's list order: links are prepended as they are made, the
			// emitting ones (made at the next frame) after the epsilon ones.
			st.Arcs = slices.Grow(st.Arcs, int(tk.emit.hi-tk.emit.lo+tk.eps.hi-tk.eps.lo))
			for l := tk.emit.hi - 1; l >= tk.emit.lo; l-- {
				lk := &fr.links[l]
				a := &d.g.emit[lk.arc]
				st.Arcs = append(st.Arcs, lattice.Arc{ILabel: a.ilabel, OLabel: a.olabel,
					W: lattice.Weight{Graph: lk.graph, Acoustic: lk.ac - d.costOffsets[f]}, Next: stateOf[base[f+1]+lk.to]})
			}
			for l := tk.eps.hi - 1; l >= tk.eps.lo; l-- {
				lk := &fr.links[l]
				st.Arcs = append(st.Arcs, lattice.Arc{ILabel: 0, OLabel: d.g.eps[lk.arc].olabel,
					W: lattice.Weight{Graph: lk.graph, Acoustic: lk.ac}, Next: stateOf[base[f]+lk.to]})
			}
			if f == nf {
				if !d.final.any {
					st.Final = lattice.One
				} else if c := d.final.costs[t]; c != inf32 {
					st.Final = lattice.Weight{Graph: c}
				}
			}
		}
	}
	return lat, nil
}

// topSortFrame orders the tokens of frame f so that every epsilon link
// within the frame goes forward (Kahn's algorithm, oldest tokens first,
// links in Kaldi's list order).
func (d *LatticeDecoder) topSortFrame(f int) []int32 {
	fr := &d.frames[f]
	n := len(fr.toks)
	indeg := make([]int32, n)
	for t := range fr.toks {
		sp := fr.toks[t].eps
		for _, lk := range fr.links[sp.lo:sp.hi] {
			indeg[lk.to]++
		}
	}
	out := make([]int32, 0, n)
	for t := range n {
		if indeg[t] == 0 {
			out = append(out, int32(t))
		}
	}
	for i := 0; i < len(out); i++ {
		sp := fr.toks[out[i]].eps
		for l := sp.hi - 1; l >= sp.lo; l-- {
			to := fr.links[l].to
			if indeg[to]--; indeg[to] == 0 {
				out = append(out, to)
			}
		}
	}
	if len(out) != n {
		// An epsilon cycle in the graph: Kaldi asserts. Keep every token so
		// the caller's TopSort reports the cycle.
		seen := make([]bool, n)
		for _, t := range out {
			seen[t] = true
		}
		for t := range n {
			if !seen[t] {
				out = append(out, int32(t))
			}
		}
	}
	return out
}
