package lattice

import (
	"container/heap"
	"encoding/binary"
	"math"
	"sort"
)

// DeterminizeOptions are the options of Kaldi's lattice determinization that
// change its result.
type DeterminizeOptions struct {
	// Delta is the tolerance for treating two subsets' weights as equal
	// (Kaldi's --delta, default 1/1024).
	Delta float32
}

// DefaultDeterminizeOptions are Kaldi's defaults.
func DefaultDeterminizeOptions() DeterminizeOptions {
	return DeterminizeOptions{Delta: 1.0 / 1024}
}

// detElem is one member of a determinized state's subset: an input state
// with the weight and transition-id string not yet output.
type detElem struct {
	state int32
	w     Weight
	tids  []int32
}

func compareElem(aw Weight, at []int32, bw Weight, bt []int32) int {
	return CompareCompact(CompactWeight{aw, at}, CompactWeight{bw, bt})
}

// determinizer is the state of one DeterminizePruned call.
type determinizer struct {
	in     *Lattice
	opts   DeterminizeOptions
	bwd    []float64 // best cost from each input state to the end
	out    *CompactLattice
	subset [][]detElem // minimal subset of each output state
	fwd    []float64   // best forward cost of each output state
	done   []bool
	index  map[string][]int32 // subset key (states and strings) → output states
	queue  detQueue
	// closure scratch, indexed by input state
	slot  []int32
	stamp []int32
	gen   int32
	keyb  []byte
}

// DeterminizePruned determinizes a state-level lattice on its words, as
// Kaldi's DeterminizeLatticePruned does for latgen's --determinize-lattice:
// the result is a CompactLattice with at most one path per word sequence,
// each carrying the best-scoring transition-id sequence for it (ties broken
// by Kaldi's CompactLatticeWeight order), restricted to paths within beam of
// the best path. The input is pruned at beam first (PruneLattice), then
// subsets are expanded best-first and those whose best completion lies
// beyond the beam are not expanded, as the pruned determinizer does.
//
// in must be acyclic; it is pruned and reordered in place.
func DeterminizePruned(in *Lattice, beam float64, opts DeterminizeOptions) (*CompactLattice, error) {
	out := &CompactLattice{Start: NoState}
	ok, err := in.Prune(beam)
	if err != nil || !ok {
		return out, err
	}
	d := &determinizer{in: in, opts: opts, out: out, index: map[string][]int32{}}
	n := len(in.States)
	d.bwd = make([]float64, n)
	for s := n - 1; s >= 0; s-- {
		b := latCost(in.States[s].Final)
		for _, a := range in.States[s].Arcs {
			if c := latCost(a.W) + d.bwd[a.Next]; c < b {
				b = c
			}
		}
		d.bwd[s] = b
	}
	d.slot = make([]int32, n)
	d.stamp = make([]int32, n)
	cutoff := d.bwd[in.Start] + beam

	// The start state's subset is not normalized (Kaldi keeps its weights).
	start := d.minimal(d.closure([]detElem{{state: in.Start, w: One}}))
	d.stateFor(start, 0)
	for d.queue.Len() > 0 {
		it := heap.Pop(&d.queue).(detItem)
		s := it.state
		if d.done[s] || it.fwd != d.fwd[s] {
			continue // stale entry
		}
		if it.priority > cutoff {
			break
		}
		d.done[s] = true
		d.expand(s)
	}
	out.Connect()
	return out, nil
}

// closure follows word-less arcs from the elements, keeping for each input
// state the best element (Kaldi's order); input states are topologically
// numbered, so visiting them in increasing order settles each one before
// its successors.
func (d *determinizer) closure(seed []detElem) []detElem {
	d.gen++
	var elems []detElem
	var h stateHeap
	add := func(e detElem) {
		if d.stamp[e.state] == d.gen {
			old := &elems[d.slot[e.state]]
			if compareElem(e.w, e.tids, old.w, old.tids) > 0 {
				*old = e
			}
			return
		}
		d.stamp[e.state] = d.gen
		d.slot[e.state] = int32(len(elems))
		elems = append(elems, e)
		heap.Push(&h, e.state)
	}
	for _, e := range seed {
		add(e)
	}
	for h.Len() > 0 {
		s := heap.Pop(&h).(int32)
		e := elems[d.slot[s]]
		for _, a := range d.in.States[s].Arcs {
			if a.OLabel != 0 {
				continue
			}
			ne := detElem{state: a.Next, w: Times(e.w, a.W), tids: e.tids}
			if a.ILabel != 0 {
				ne.tids = appendTid(e.tids, a.ILabel)
			}
			add(ne)
		}
	}
	return elems
}

func appendTid(t []int32, tid int32) []int32 {
	out := make([]int32, len(t)+1)
	copy(out, t)
	out[len(t)] = tid
	return out
}

// minimal keeps the elements whose state is final or has word arcs (Kaldi's
// ConvertToMinimal), sorted by state.
func (d *determinizer) minimal(elems []detElem) []detElem {
	kept := elems[:0]
	for _, e := range elems {
		st := &d.in.States[e.state]
		keep := !st.Final.IsZero()
		for _, a := range st.Arcs {
			if a.OLabel != 0 {
				keep = true
				break
			}
		}
		if keep {
			kept = append(kept, e)
		}
	}
	sort.Slice(kept, func(i, j int) bool { return kept[i].state < kept[j].state })
	return kept
}

// normalize divides out the subset's best weight and the longest common
// prefix of its strings, returning them (Kaldi's NormalizeSubset).
func normalize(elems []detElem) CompactWeight {
	tot := elems[0].w
	prefix := elems[0].tids
	for _, e := range elems[1:] {
		tot = Plus(tot, e.w)
		n := 0
		for n < len(prefix) && n < len(e.tids) && prefix[n] == e.tids[n] {
			n++
		}
		prefix = prefix[:n]
	}
	p := append([]int32(nil), prefix...)
	for i := range elems {
		e := &elems[i]
		e.w = Weight{e.w.Graph - tot.Graph, e.w.Acoustic - tot.Acoustic}
		e.tids = e.tids[len(p):]
	}
	if len(p) == 0 {
		p = nil
	}
	return CompactWeight{W: tot, Tids: p}
}

func approxEqual(a, b Weight, delta float32) bool {
	if a == b {
		return true
	}
	return math.Abs(float64((a.Graph+a.Acoustic)-(b.Graph+b.Acoustic))) <= float64(delta)
}

// stateFor returns the output state of a minimal normalized subset, creating
// it (and queueing it) when new; fwd is the best cost of reaching it.
func (d *determinizer) stateFor(elems []detElem, fwd float64) int32 {
	k := d.keyb[:0]
	for _, e := range elems {
		k = binary.LittleEndian.AppendUint32(k, uint32(e.state))
		k = binary.LittleEndian.AppendUint32(k, uint32(len(e.tids)))
		for _, t := range e.tids {
			k = binary.LittleEndian.AppendUint32(k, uint32(t))
		}
	}
	d.keyb = k
	for _, s := range d.index[string(k)] {
		old := d.subset[s]
		same := true
		for i := range old {
			if !approxEqual(old[i].w, elems[i].w, d.opts.Delta) {
				same = false
				break
			}
		}
		if same {
			if fwd < d.fwd[s] && !d.done[s] {
				d.fwd[s] = fwd
				d.push(s)
			}
			return s
		}
	}
	s := d.out.AddState()
	d.index[string(k)] = append(d.index[string(k)], s)
	d.subset = append(d.subset, elems)
	d.fwd = append(d.fwd, fwd)
	d.done = append(d.done, false)
	if s == 0 {
		d.out.Start = 0
	}
	d.push(s)
	return s
}

func (d *determinizer) push(s int32) {
	b := math.Inf(1)
	for _, e := range d.subset[s] {
		if c := latCost(e.w) + d.bwd[e.state]; c < b {
			b = c
		}
	}
	heap.Push(&d.queue, detItem{priority: d.fwd[s] + b, fwd: d.fwd[s], state: s})
}

// expand computes the final weight and the outgoing arcs of output state s.
func (d *determinizer) expand(s int32) {
	elems := d.subset[s]
	final := CompactZero
	type pending struct {
		word int32
		e    detElem
	}
	var arcs []pending
	for _, e := range elems {
		st := &d.in.States[e.state]
		if !st.Final.IsZero() {
			fw := Times(e.w, st.Final)
			if final.W.IsZero() || compareElem(fw, e.tids, final.W, final.Tids) > 0 {
				final = CompactWeight{W: fw, Tids: e.tids}
			}
		}
		for _, a := range st.Arcs {
			if a.OLabel == 0 {
				continue
			}
			ne := detElem{state: a.Next, w: Times(e.w, a.W), tids: e.tids}
			if a.ILabel != 0 {
				ne.tids = appendTid(e.tids, a.ILabel)
			}
			arcs = append(arcs, pending{a.OLabel, ne})
		}
	}
	if !final.W.IsZero() {
		final.Tids = append([]int32(nil), final.Tids...)
		if len(final.Tids) == 0 {
			final.Tids = nil
		}
		d.out.States[s].Final = final
	}
	sort.SliceStable(arcs, func(i, j int) bool { return arcs[i].word < arcs[j].word })
	for i := 0; i < len(arcs); {
		j := i
		var group []detElem
		for ; j < len(arcs) && arcs[j].word == arcs[i].word; j++ {
			group = append(group, arcs[j].e)
		}
		sub := d.minimal(d.closure(group))
		if len(sub) > 0 {
			w := normalize(sub)
			next := d.stateFor(sub, d.fwd[s]+latCost(w.W))
			d.out.States[s].Arcs = append(d.out.States[s].Arcs, CompactArc{Label: arcs[i].word, W: w, Next: next})
		}
		i = j
	}
}

type detItem struct {
	priority, fwd float64
	state         int32
}

type detQueue []detItem

func (q detQueue) Len() int { return len(q) }
func (q detQueue) Less(i, j int) bool {
	if q[i].priority != q[j].priority {
		return q[i].priority < q[j].priority
	}
	return q[i].state < q[j].state
}
func (q detQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *detQueue) Push(x any)   { *q = append(*q, x.(detItem)) }
func (q *detQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

type stateHeap []int32

func (h stateHeap) Len() int           { return len(h) }
func (h stateHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h stateHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *stateHeap) Push(x any)        { *h = append(*h, x.(int32)) }
func (h *stateHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
