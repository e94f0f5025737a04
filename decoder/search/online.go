package search

import (
	"errors"
	"slices"
)

// Online decoding (Kaldi's LatticeFasterDecoder interface, as its online
// decoders drive it): InitDecoding starts an utterance, AdvanceDecoding
// decodes whatever frames the Decodable has ready (it may be called again
// after more frames arrive), FinalizeDecoding ends it, and FinalResult is
// the rest of DecodeUtterance. Decode is exactly InitDecoding,
// AdvanceDecoding over all frames and FinalizeDecoding, and the frame loop
// and its periodic pruning do not depend on how the frames were split, so
// decoding in chunks gives Decode's lattice. During decoding,
// PartialBestPath and FinalRelativeCost give what Kaldi's partial results
// and endpointing read.

// ErrFinalized is returned by the calls that are only valid before
// FinalizeDecoding.
var ErrFinalized = errors.New("search: decoding was finalized")

// InitDecoding is Kaldi's InitDecoding: forget the previous utterance and
// put the start state's token (and its epsilon closure) in frame 0.
func (d *LatticeDecoder) InitDecoding() {
	if n := int(d.g.MaxInputLabel()) + 1; len(d.tidLL) < n {
		d.tidLL = make([]float32, n)
	}
	d.reset()
	d.pushFrame()
	d.findOrAdd(d.g.Start, 0)
	d.processNonemitting(d.beam, nil)
}

// AdvanceDecoding is Kaldi's AdvanceDecoding: it decodes the frames of dec
// not decoded yet (dec.NumFrames may have grown since the last call), at
// most maxFrames of them when maxFrames > 0.
func (d *LatticeDecoder) AdvanceDecoding(dec Decodable, maxFrames int, warn func(string, ...any)) error {
	if d.decoded {
		return ErrFinalized
	}
	target := dec.NumFrames()
	if maxFrames > 0 {
		target = min(target, d.NumFramesDecoded()+maxFrames)
	}
	for frame := d.NumFramesDecoded(); frame < target; frame++ {
		if frame%d.opts.PruneInterval == 0 {
			d.pruneActiveTokens(d.pruneDelta, warn)
		}
		d.stats.Frames++
		cutoff := d.processEmitting(dec, frame)
		d.processNonemitting(cutoff, warn)
	}
	return nil
}

// FinalizeDecoding is Kaldi's FinalizeDecoding: the final pruning, with the
// final costs. It returns ErrNoTokens when nothing survived to the last
// frame.
func (d *LatticeDecoder) FinalizeDecoding(warn func(string, ...any)) error {
	if d.decoded {
		return ErrFinalized
	}
	d.finalize(warn)
	if len(d.frames[len(d.frames)-1].toks) == 0 {
		return ErrNoTokens
	}
	return nil
}

// FinalRelativeCost is Kaldi's FinalRelativeCost: how much worse the best
// token becomes with the final costs (0 when the best token is final, +Inf
// when no active state is final). Before FinalizeDecoding it is computed on
// the newest frame without changing the decoder's state.
func (d *LatticeDecoder) FinalRelativeCost() float32 {
	if d.decoded {
		return d.final.relative
	}
	fr := &d.frames[len(d.frames)-1]
	best, bestFinal := inf32, inf32
	for i := range fr.toks {
		c := fr.costs[i].tot
		best = min(best, c)
		bestFinal = min(bestFinal, c+d.g.final[fr.toks[i].state])
	}
	if best == inf32 && bestFinal == inf32 {
		return inf32
	}
	return bestFinal - best
}

// PartialBestPath is Kaldi's GetBestPath(use_final_probs = false) during
// decoding (the traceback online decoders print partial results and
// measure trailing silence with): the transition-ids, one per decoded
// frame, and the words of the best path to the best token of the newest
// frame. It walks back from that token, taking at each step the incoming
// link (an epsilon link in the same frame, or an emitting one from the
// frame before) through which the token got its cost — the cheapest
// predecessor's cost plus the link's, summed as the search summed it — so
// it allocates only the result and reads only the links into the path.
func (d *LatticeDecoder) PartialBestPath() (alignment, words []int32, err error) {
	if d.decoded {
		return nil, nil, ErrFinalized
	}
	f := len(d.frames) - 1
	fr := &d.frames[f]
	cur := int32(none)
	bestCost := inf32
	for i := range fr.costs {
		if c := fr.costs[i].tot; c < bestCost {
			bestCost, cur = c, int32(i)
		}
	}
	if cur == none {
		return nil, nil, ErrNoTokens
	}
	steps := 0 // epsilon steps within the current frame (a cycle guard)
	for {
		fr := &d.frames[f]
		from, arc, emitting := int32(none), int32(-1), false
		best := inf32
		for s := range fr.toks {
			sp := fr.toks[s].eps
			for l := sp.lo; l < sp.hi; l++ {
				if lk := &fr.links[l]; lk.to == cur {
					if c := fr.costs[s].tot + lk.graph; c < best {
						best, from, arc = c, int32(s), lk.arc
					}
				}
			}
		}
		if f > 0 {
			pf := &d.frames[f-1]
			for s := range pf.toks {
				sp := pf.toks[s].emit
				for l := sp.lo; l < sp.hi; l++ {
					if lk := &pf.links[l]; lk.to == cur {
						if c := pf.costs[s].tot + lk.ac + lk.graph; c < best {
							best, from, arc, emitting = c, int32(s), lk.arc, true
						}
					}
				}
			}
		}
		if from == none {
			break // the start token
		}
		if emitting {
			a := &d.g.emit[arc]
			alignment = append(alignment, a.ilabel)
			if a.olabel != 0 {
				words = append(words, a.olabel)
			}
			f--
			steps = 0
		} else {
			if o := d.g.eps[arc].olabel; o != 0 {
				words = append(words, o)
			}
			if steps++; steps > len(fr.toks) {
				return nil, nil, errors.New("search: epsilon cycle in the best path")
			}
		}
		cur = from
	}
	slices.Reverse(alignment)
	slices.Reverse(words)
	return alignment, words, nil
}
