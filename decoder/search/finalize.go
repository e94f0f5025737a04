package search

import (
	"github.com/strode-asr/strode/decoder/lattice"
)

// computeFinalCosts is Kaldi's ComputeFinalCosts over the frontier: the
// final cost of every token in a final state, how much the final costs
// worsen the best token (relative, +Inf when no final state is active), and
// the best cost including final costs (or without them when no token is
// final).
func (d *LatticeDecoder) computeFinalCosts() finalInfo {
	fi := finalInfo{costs: map[int32]float32{}}
	best, bestFinal := inf32, inf32
	for _, t := range d.front {
		fc := d.g.final[d.toks[t].state]
		c := d.toks[t].tot
		best = min(best, c)
		bestFinal = min(bestFinal, c+fc)
		if fc != inf32 {
			fi.costs[t] = fc
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
	return fi
}

// ReachedFinal reports whether a final state was active at the end (Kaldi's
// ReachedFinal: the final costs do not make every token impossible).
func (d *LatticeDecoder) ReachedFinal() bool { return d.final.relative != inf32 }

// finalize is Kaldi's FinalizeDecoding: prune the last frame's links with the
// final costs taken into account, then every frame backwards with delta 0.
func (d *LatticeDecoder) finalize(warn func(string, ...any)) {
	last := len(d.frames) - 1
	d.pruneForwardLinksFinal(last, warn)
	for f := last - 1; f >= 0; f-- {
		d.pruneForwardLinks(f, 0, warn)
		d.pruneTokensForFrame(f + 1)
	}
	d.pruneTokensForFrame(0)
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

// pruneForwardLinksFinal is Kaldi's PruneForwardLinksFinal.
func (d *LatticeDecoder) pruneForwardLinksFinal(f int, warn func(string, ...any)) {
	if d.frames[f].head == none && warn != nil {
		warn("No tokens alive at end of file")
	}
	d.final = d.computeFinalCosts()
	d.front = d.front[:0]
	d.newFrontier()
	const delta = 1e-5
	changed := true
	for changed {
		changed = false
		d.passStamp++
		stale := false
		for t := d.frames[f].head; t != none; t = d.toks[t].next {
			tk := &d.toks[t]
			var finalCost float32
			if len(d.final.costs) == 0 {
				finalCost = 0
			} else if c, ok := d.final.costs[t]; ok {
				finalCost = c
			} else {
				finalCost = inf32
			}
			tokExtra := tk.tot + finalCost - d.final.best
			prev := int32(none)
			for l := tk.links; l != none; {
				lk := &d.links[l]
				if lk.ilabel == 0 && d.passOf[lk.to] != d.passStamp {
					stale = true // see pruneForwardLinks
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
			if tokExtra > d.latBeam {
				tokExtra = inf32
			}
			if !approxEqual(tk.extra, tokExtra, delta) {
				changed = true
			}
			tk.extra = tokExtra
			d.passOf[t] = d.passStamp
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
	stateOf := make([]int32, len(d.toks)) // token → lattice state
	order := make([][]int32, nf+1)
	for f := 0; f <= nf; f++ {
		if d.frames[f].head == none {
			return nil, ErrNoTokens
		}
		order[f] = d.topSortFrame(f)
		for _, t := range order[f] {
			stateOf[t] = lat.AddState()
		}
	}
	lat.Start = 0
	for f := 0; f <= nf; f++ {
		for _, t := range order[f] {
			s := stateOf[t]
			st := &lat.States[s]
			for l := d.toks[t].links; l != none; l = d.links[l].next {
				lk := &d.links[l]
				var off float32
				if lk.ilabel != 0 {
					off = d.costOffsets[f]
				}
				st.Arcs = append(st.Arcs, lattice.Arc{ILabel: lk.ilabel, OLabel: lk.olabel,
					W: lattice.Weight{Graph: lk.graph, Acoustic: lk.ac - off}, Next: stateOf[lk.to]})
			}
			if f == nf {
				if len(d.final.costs) == 0 {
					st.Final = lattice.One
				} else if c, ok := d.final.costs[t]; ok {
					st.Final = lattice.Weight{Graph: c}
				}
			}
		}
	}
	// Links are prepended as they are made; Kaldi's lists are too, so the
	// arcs come out in the same (reverse-creation) order.
	return lat, nil
}

// topSortFrame orders the tokens of frame f so that every epsilon link
// within the frame goes forward (Kahn's algorithm, oldest tokens first).
func (d *LatticeDecoder) topSortFrame(f int) []int32 {
	var toks []int32
	for t := d.frames[f].head; t != none; t = d.toks[t].next {
		toks = append(toks, t)
	}
	// The list is newest first; start from the oldest.
	for i, j := 0, len(toks)-1; i < j; i, j = i+1, j-1 {
		toks[i], toks[j] = toks[j], toks[i]
	}
	if len(d.pos) < len(d.toks) {
		d.pos = make([]int32, len(d.toks))
		for i := range d.pos {
			d.pos[i] = none
		}
	}
	for i, t := range toks {
		d.pos[t] = int32(i)
	}
	defer func() {
		for _, t := range toks {
			d.pos[t] = none
		}
	}()
	indeg := make([]int, len(toks))
	for _, t := range toks {
		for l := d.toks[t].links; l != none; l = d.links[l].next {
			if d.links[l].ilabel == 0 {
				if p := d.pos[d.links[l].to]; p != none {
					indeg[p]++
				}
			}
		}
	}
	out := make([]int32, 0, len(toks))
	for i, t := range toks {
		if indeg[i] == 0 {
			out = append(out, t)
		}
	}
	for i := 0; i < len(out); i++ {
		for l := d.toks[out[i]].links; l != none; l = d.links[l].next {
			if d.links[l].ilabel == 0 {
				if p := d.pos[d.links[l].to]; p != none {
					if indeg[p]--; indeg[p] == 0 {
						out = append(out, d.links[l].to)
					}
				}
			}
		}
	}
	if len(out) != len(toks) {
		// An epsilon cycle in the graph: Kaldi asserts. Keep every token so
		// the caller's TopSort reports the cycle.
		seen := make(map[int32]bool, len(out))
		for _, t := range out {
			seen[t] = true
		}
		for _, t := range toks {
			if !seen[t] {
				out = append(out, t)
			}
		}
	}
	return out
}
