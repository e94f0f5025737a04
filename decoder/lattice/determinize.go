package lattice

import (
	"container/heap"
	"encoding/binary"
	"fmt"
	"math"
	"sort"
)

// DeterminizeOptions are the options of Kaldi's lattice determinization that
// change its result.
type DeterminizeOptions struct {
	// Delta is the tolerance for treating two subsets' weights as equal
	// (Kaldi's --delta, default 1/1024).
	Delta float32
	// MaxMem is Kaldi's --max-mem: when the determinization's approximate
	// memory (subset elements, output arcs, transition-id strings) passes
	// it, the determinization stops where its queue has got to, which is a
	// narrower beam than asked; it is then retried on the input pruned to a
	// narrower beam (DeterminizePruned). A weak acoustic model can leave
	// thousands of word sequences within the lattice beam, whose subsets
	// grow without bound (16 GB on one 2.6-second utterance). ≤ 0: no limit.
	MaxMem int64
	// RetryCutoff is Kaldi's retry_cutoff: a determinization stopped by
	// MaxMem is kept when it reached this fraction of the beam.
	RetryCutoff float64
	// Warn, when not nil, receives Kaldi's warning and log lines about a
	// determinization stopped by MaxMem and retried.
	Warn func(string)
}

// DefaultDeterminizeOptions are Kaldi's defaults (latgen's
// DeterminizeLatticePhonePrunedOptions: --max-mem 50000000; the pruned
// determinizer's retry_cutoff 0.5).
func DefaultDeterminizeOptions() DeterminizeOptions {
	return DeterminizeOptions{Delta: 1.0 / 1024, MaxMem: 50000000, RetryCutoff: 0.5}
}

// determinizeMaxIters bounds the retries at narrower beams, as Kaldi's
// DeterminizeLatticePruned does.
const determinizeMaxIters = 10

// detElem is one member of a determinized state's subset: an input state
// with the weight and transition-id string (an id in the determinizer's
// tidStore) not yet output.
type detElem struct {
	state int32
	w     Weight
	str   tidString
}

// compareElem is CompareCompact on two elements' weights and strings.
func (d *determinizer) compareElem(aw Weight, as tidString, bw Weight, bs tidString) int {
	if c := Compare(aw, bw); c != 0 {
		return c
	}
	return d.strs.compare(as, bs)
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
	strs   tidStore
	// closure scratch, indexed by input state
	slot  []int32
	stamp []int32
	gen   int32
	keyb  []byte
	heap  stateHeap
	buf   []int32 // scratch string
	// elems is the closure's result, reused from one closure to the next:
	// stateFor keeps a copy of a new state's subset.
	elems []detElem
	// For the memory estimate: output arcs and their transition-ids,
	// elements of the stored subsets, bytes of the index's keys.
	arcs, arcTids, elemCount, keyBytes int64
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
//
// With opts.MaxMem the determinization stops when its approximate memory
// passes that, and is retried on the input pruned to a narrower beam
// (beam·√(effective/beam), at least half the beam) until the beam it
// reaches is at least opts.RetryCutoff of the beam tried, at most
// determinizeMaxIters times, as Kaldi's DeterminizeLatticePruned does; the
// last try's lattice is returned even if it fell short.
func DeterminizePruned(in *Lattice, beam float64, opts DeterminizeOptions) (*CompactLattice, error) {
	for iter := 0; ; iter++ {
		out, effective, err := determinizeOnce(in, beam, opts)
		if err != nil || effective >= beam || effective >= beam*opts.RetryCutoff ||
			math.IsInf(beam, 1) || iter+1 == determinizeMaxIters {
			return out, err
		}
		effective = max(effective, 0)
		beam = max(beam*math.Sqrt(effective/beam), beam/2)
		if opts.Warn != nil {
			opts.Warn(fmt.Sprintf("Pruned state-level lattice with beam %g and retrying determinization with that beam.", beam))
		}
	}
}

// approxSize are the byte sizes the memory estimate counts, as Kaldi's
// determinizer counts its repository, arcs and elements.
const (
	elemBytes = 24 // detElem, padded
	arcBytes  = 40 // CompactArc without its transition-ids
	nodeBytes = 12 // tidNode
)

// determinizeOnce is one try of DeterminizePruned: it returns the lattice
// and the beam it reached (beam when it finished; less when MaxMem stopped
// it).
func determinizeOnce(in *Lattice, beam float64, opts DeterminizeOptions) (*CompactLattice, float64, error) {
	out := &CompactLattice{Start: NoState}
	ok, err := in.Prune(beam)
	if err != nil || !ok {
		return out, beam, err
	}
	d := &determinizer{in: in, opts: opts, out: out, index: map[string][]int32{}, strs: newTidStore()}
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
	start := d.minimal(d.closure([]detElem{{state: in.Start, w: One, str: emptyString}}))
	d.stateFor(start, 0)
	effective := beam
	for d.queue.Len() > 0 {
		it := heap.Pop(&d.queue).(detItem)
		s := it.state
		if d.done[s] || it.fwd != d.fwd[s] {
			continue // stale entry
		}
		if it.priority > cutoff {
			break
		}
		if opts.MaxMem > 0 && d.memory() > opts.MaxMem {
			// Most of it is usually strings no subset refers to any more:
			// rebuild the store, and stop only if that did not bring the
			// total under 80% of the bound (Kaldi's margin, so as not to
			// rebuild again at once).
			repo := int64(d.strs.n) * nodeBytes
			d.rebuildStrings()
			if d.memory() > opts.MaxMem*8/10 {
				effective = it.priority - d.bwd[in.Start]
				if opts.Warn != nil {
					opts.Warn(fmt.Sprintf("Did not reach requested beam in determinize-lattice: size exceeds maximum %d bytes; (repo,arcs,elems) = (%d,%d,%d), after rebuilding, repo size was %d, effective beam was %g vs. requested beam %g",
						opts.MaxMem, repo, d.arcs*arcBytes+d.arcTids*4, d.elemCount*elemBytes, int64(d.strs.n)*nodeBytes, effective, beam))
				}
				break
			}
		}
		d.done[s] = true
		d.expand(s)
	}
	out.Connect()
	return out, effective, nil
}

// memory is the approximate size of the determinization so far: the
// transition-id strings, the output arcs and the elements of the stored
// subsets with their index keys.
func (d *determinizer) memory() int64 {
	return int64(d.strs.n)*nodeBytes + d.arcs*arcBytes + d.arcTids*4 + d.elemCount*elemBytes + d.keyBytes
}

// rebuildStrings replaces the string store by one that holds only the
// strings of the output states' subsets (Kaldi's RebuildRepository): the
// closures leave behind the strings of every element they replaced, and
// normalization the prefixes it moved onto arcs. Equal strings share their
// nodes in the new store.
func (d *determinizer) rebuildStrings() {
	fresh := newTidStore()
	type edge struct{ parent, tid int32 }
	nodes := map[edge]int32{}
	for _, sub := range d.subset {
		for i := range sub {
			e := &sub[i]
			d.buf = d.strs.appendTo(d.buf[:0], e.str)
			str := emptyString
			for _, tid := range d.buf {
				k := edge{str.node, tid}
				if n, ok := nodes[k]; ok {
					str.node = n
					continue
				}
				str = fresh.append(str, tid)
				nodes[k] = str.node
			}
			e.str = str
		}
	}
	d.strs = fresh
}

// closure follows word-less arcs from the elements, keeping for each input
// state the best element (Kaldi's order); input states are topologically
// numbered, so visiting them in increasing order settles each one before
// its successors. The result is valid until the next closure.
func (d *determinizer) closure(seed []detElem) []detElem {
	d.gen++
	elems := d.elems[:0]
	h := d.heap[:0]
	add := func(e detElem) {
		if d.stamp[e.state] == d.gen {
			old := &elems[d.slot[e.state]]
			if d.compareElem(e.w, e.str, old.w, old.str) > 0 {
				*old = e
			}
			return
		}
		d.stamp[e.state] = d.gen
		d.slot[e.state] = int32(len(elems))
		elems = append(elems, e)
		h.push(e.state)
	}
	for _, e := range seed {
		add(e)
	}
	for len(h) > 0 {
		s := h.pop()
		e := elems[d.slot[s]]
		for _, a := range d.in.States[s].Arcs {
			if a.OLabel != 0 {
				continue
			}
			ne := detElem{state: a.Next, w: Times(e.w, a.W), str: e.str}
			if a.ILabel != 0 {
				ne.str = d.strs.append(e.str, a.ILabel)
			}
			add(ne)
		}
	}
	d.heap = h
	d.elems = elems
	return elems
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
func (d *determinizer) normalize(elems []detElem) CompactWeight {
	tot := elems[0].w
	prefix := d.strs.appendTo(d.buf[:0], elems[0].str)
	for _, e := range elems[1:] {
		tot = Plus(tot, e.w)
		prefix = prefix[:d.strs.commonPrefix(prefix, e.str)]
	}
	d.buf = prefix
	var p []int32
	if len(prefix) > 0 {
		p = append([]int32(nil), prefix...)
	}
	for i := range elems {
		e := &elems[i]
		e.w = Weight{e.w.Graph - tot.Graph, e.w.Acoustic - tot.Acoustic}
		if len(p) > 0 {
			e.str = d.strs.suffix(e.str, len(p))
		}
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
		k = binary.LittleEndian.AppendUint32(k, uint32(d.strs.length(e.str)))
		k = d.strs.appendKey(k, e.str)
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
	d.subset = append(d.subset, append([]detElem(nil), elems...))
	d.elemCount += int64(len(elems))
	d.keyBytes += int64(len(k))
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
	finalW, finalStr := Zero, emptyString
	type pending struct {
		word int32
		e    detElem
	}
	var arcs []pending
	for _, e := range elems {
		st := &d.in.States[e.state]
		if !st.Final.IsZero() {
			fw := Times(e.w, st.Final)
			if finalW.IsZero() || d.compareElem(fw, e.str, finalW, finalStr) > 0 {
				finalW, finalStr = fw, e.str
			}
		}
		for _, a := range st.Arcs {
			if a.OLabel == 0 {
				continue
			}
			ne := detElem{state: a.Next, w: Times(e.w, a.W), str: e.str}
			if a.ILabel != 0 {
				ne.str = d.strs.append(e.str, a.ILabel)
			}
			arcs = append(arcs, pending{a.OLabel, ne})
		}
	}
	if !finalW.IsZero() {
		final := CompactWeight{W: finalW}
		if d.strs.length(finalStr) > 0 {
			final.Tids = d.strs.appendTo(nil, finalStr)
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
			w := d.normalize(sub)
			next := d.stateFor(sub, d.fwd[s]+latCost(w.W))
			d.out.States[s].Arcs = append(d.out.States[s].Arcs, CompactArc{Label: arcs[i].word, W: w, Next: next})
			d.arcs++
			d.arcTids += int64(len(w.Tids))
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

// stateHeap is a min-heap of input states (no interface boxing: the
// closure pushes every state it reaches).
type stateHeap []int32

func (h *stateHeap) push(s int32) {
	*h = append(*h, s)
	a := *h
	i := len(a) - 1
	for i > 0 {
		p := (i - 1) / 2
		if a[p] <= a[i] {
			break
		}
		a[p], a[i] = a[i], a[p]
		i = p
	}
}

func (h *stateHeap) pop() int32 {
	a := *h
	top := a[0]
	n := len(a) - 1
	a[0] = a[n]
	a = a[:n]
	i := 0
	for {
		l := 2*i + 1
		if l >= n {
			break
		}
		if r := l + 1; r < n && a[r] < a[l] {
			l = r
		}
		if a[i] <= a[l] {
			break
		}
		a[i], a[l] = a[l], a[i]
		i = l
	}
	*h = a
	return top
}
