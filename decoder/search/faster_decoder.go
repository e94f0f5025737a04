package search

import (
	"math"

	"github.com/strode-asr/strode/decoder/lattice"
)

// ftoken is a FasterDecoder token: the arc that reached it, the previous
// token and the total cost (double, as Kaldi's).
type ftoken struct {
	ilabel, olabel int32
	graph          float32
	state          int32
	prev           int32
	cost           float64
}

// FasterDecoder is Kaldi's FasterDecoder (decode-faster-mapped): Viterbi beam
// search keeping only backpointers, for 1-best output without lattices.
// Tokens of an utterance live in one slice reused across utterances.
type FasterDecoder struct {
	g          *Graph
	opts       FasterOptions
	toks       []ftoken
	front      []int32 // states of the frontier, insertion order
	prevFront  []int32 // token ids of the previous frame's frontier
	stateTok   []int32
	stateStamp []uint32
	stamp      uint32
	queue      []int32
	costs      []float64
	tidLL      []float32
}

// NewFasterDecoder returns a 1-best decoder for g.
func NewFasterDecoder(g *Graph, opts FasterOptions) *FasterDecoder {
	return &FasterDecoder{g: g, opts: opts, stateTok: make([]int32, g.NumStates()), stateStamp: make([]uint32, g.NumStates())}
}

func (d *FasterDecoder) newFrontier() {
	d.stamp++
	if d.stamp == 0 {
		for i := range d.stateStamp {
			d.stateStamp[i] = 0
		}
		d.stamp = 1
	}
}

func (d *FasterDecoder) lookup(state int32) int32 {
	if d.stateStamp[state] == d.stamp {
		return d.stateTok[state]
	}
	return none
}

// insert offers a token for state; it is kept if the state has none or a
// worse one. It reports whether it was kept.
func (d *FasterDecoder) insert(t ftoken) bool {
	old := d.lookup(t.state)
	if old != none && d.toks[old].cost <= t.cost {
		return false
	}
	d.toks = append(d.toks, t)
	id := int32(len(d.toks) - 1)
	if old == none {
		d.front = append(d.front, t.state)
		d.stateStamp[t.state] = d.stamp
	}
	d.stateTok[t.state] = id
	return true
}

// Decode decodes one utterance. It returns ErrNoTokens if no token survives.
func (d *FasterDecoder) Decode(dec Decodable) error {
	if n := int(d.g.MaxInputLabel()) + 1; len(d.tidLL) < n {
		d.tidLL = make([]float32, n)
	}
	d.toks = d.toks[:0]
	d.front = d.front[:0]
	d.newFrontier()
	d.insert(ftoken{state: d.g.Start, prev: none})
	d.processNonemitting(math.MaxFloat32)
	for frame := 0; frame < dec.NumFrames(); frame++ {
		cutoff := d.processEmitting(dec, frame)
		d.processNonemitting(cutoff)
	}
	if len(d.front) == 0 {
		return ErrNoTokens
	}
	return nil
}

func (d *FasterDecoder) getCutoff() (cutoff float64, adaptiveBeam float64, best int32) {
	best = none
	bestW := math.Inf(1)
	beam := d.opts.Beam
	if d.opts.MaxActive == math.MaxInt32 && d.opts.MinActive == 0 {
		for _, t := range d.prevFront {
			if w := d.toks[t].cost; w < bestW {
				bestW, best = w, t
			}
		}
		return bestW + beam, beam, best
	}
	d.costs = d.costs[:0]
	for _, t := range d.prevFront {
		w := d.toks[t].cost
		d.costs = append(d.costs, w)
		if w < bestW {
			bestW, best = w, t
		}
	}
	beamCutoff := bestW + beam
	minCut, maxCut := math.Inf(1), math.Inf(1)
	if len(d.costs) > d.opts.MaxActive {
		maxCut = nthElement(d.costs, d.opts.MaxActive)
	}
	if maxCut < beamCutoff {
		return maxCut, maxCut - bestW + d.opts.BeamDelta, best
	}
	if len(d.costs) > d.opts.MinActive {
		if d.opts.MinActive == 0 {
			minCut = bestW
		} else {
			upto := len(d.costs)
			if len(d.costs) > d.opts.MaxActive {
				upto = d.opts.MaxActive
			}
			minCut = nthElement(d.costs[:upto], d.opts.MinActive)
		}
	}
	if minCut > beamCutoff {
		return minCut, minCut - bestW + d.opts.BeamDelta, best
	}
	return beamCutoff, beam, best
}

func (d *FasterDecoder) processEmitting(dec Decodable, frame int) float64 {
	// The previous frontier becomes a list of token ids (the state table is
	// then reused for the new frame).
	d.prevFront = d.prevFront[:0]
	for _, s := range d.front {
		d.prevFront = append(d.prevFront, d.stateTok[s])
	}
	d.front = d.front[:0]
	cutoff, adaptiveBeam, best := d.getCutoff()
	d.newFrontier()
	ll := d.tidLL
	dec.LogLikes(frame, ll)
	next := math.Inf(1)
	if best != none {
		bt := d.toks[best]
		for _, a := range d.g.emitting(bt.state) {
			w := float64(a.weight) + bt.cost + float64(-ll[a.ilabel])
			if w+adaptiveBeam < next {
				next = w + adaptiveBeam
			}
		}
	}
	for _, t := range d.prevFront {
		tk := d.toks[t]
		if !(tk.cost < cutoff) {
			continue
		}
		for _, a := range d.g.emitting(tk.state) {
			ac := -ll[a.ilabel]
			w := float64(a.weight) + tk.cost + float64(ac)
			if w < next {
				d.insert(ftoken{ilabel: a.ilabel, olabel: a.olabel, graph: a.weight, state: a.next, prev: t,
					cost: tk.cost + float64(a.weight) + float64(ac)})
				if w+adaptiveBeam < next {
					next = w + adaptiveBeam
				}
			}
		}
	}
	return next
}

func (d *FasterDecoder) processNonemitting(cutoff float64) {
	d.queue = append(d.queue[:0], d.front...)
	for len(d.queue) > 0 {
		s := d.queue[len(d.queue)-1]
		d.queue = d.queue[:len(d.queue)-1]
		t := d.stateTok[s]
		tk := d.toks[t]
		if tk.cost > cutoff {
			continue
		}
		for _, a := range d.g.epsilons(s) {
			nt := ftoken{olabel: a.olabel, graph: a.weight, state: a.next, prev: t, cost: tk.cost + float64(a.weight)}
			if nt.cost > cutoff {
				continue
			}
			if d.insert(nt) {
				d.queue = append(d.queue, a.next)
			}
		}
	}
}

// ReachedFinal reports whether a token is in a final state.
func (d *FasterDecoder) ReachedFinal() bool {
	for _, s := range d.front {
		if d.toks[d.stateTok[s]].cost != math.Inf(1) && d.g.final[s] != inf32 {
			return true
		}
	}
	return false
}

// BestPath returns the best path as Kaldi's FasterDecoder::GetBestPath with
// final probabilities: among final tokens when a final state was reached,
// else the best token. Per arc the acoustic cost is the token cost
// difference minus the graph cost, in float32 as Kaldi.
func (d *FasterDecoder) BestPath() (alignment, words []int32, w lattice.Weight, err error) {
	best := int32(none)
	final := d.ReachedFinal()
	bestCost := math.Inf(1)
	for _, s := range d.front {
		t := d.stateTok[s]
		c := d.toks[t].cost
		if final {
			c += float64(d.g.final[s])
		}
		if c < bestCost || (!final && best == none) {
			bestCost, best = c, t
		}
	}
	if best == none {
		return nil, nil, lattice.Zero, ErrNoTokens
	}
	w = lattice.One
	for t := best; t != none; t = d.toks[t].prev {
		tk := d.toks[t]
		var prevCost float64
		if tk.prev != none {
			prevCost = d.toks[tk.prev].cost
		}
		tot := float32(tk.cost - prevCost)
		w = lattice.Times(w, lattice.Weight{Graph: tk.graph, Acoustic: tot - tk.graph})
		if tk.ilabel != 0 {
			alignment = append(alignment, tk.ilabel)
		}
		if tk.olabel != 0 {
			words = append(words, tk.olabel)
		}
	}
	if final {
		w = lattice.Times(w, lattice.Weight{Graph: d.g.final[d.toks[best].state]})
	}
	for i, j := 0, len(alignment)-1; i < j; i, j = i+1, j-1 {
		alignment[i], alignment[j] = alignment[j], alignment[i]
	}
	for i, j := 0, len(words)-1; i < j; i, j = i+1, j-1 {
		words[i], words[j] = words[j], words[i]
	}
	return alignment, words, w, nil
}
