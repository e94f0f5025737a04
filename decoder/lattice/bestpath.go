package lattice

import "errors"

// ErrNoPath is returned when a lattice has no successful path (no start
// state, nothing final reachable, or only infinite costs).
var ErrNoPath = errors.New("no path in lattice")

// ErrCyclic is returned for a lattice with cycles where an acyclic one is
// needed.
var ErrCyclic = errors.New("lattice has cycles")

func costOf(w CompactWeight) float64 { return float64(w.W.Graph) + float64(w.W.Acoustic) }

// TopSortOrder returns the states in a topological order (states in id order
// when already sorted), or ErrCyclic.
func (c *CompactLattice) TopSortOrder() ([]int32, error) {
	sorted := true
	for s := range c.States {
		for _, a := range c.States[s].Arcs {
			if a.Next <= int32(s) {
				sorted = false
			}
		}
	}
	n := len(c.States)
	order := make([]int32, 0, n)
	if sorted {
		for s := 0; s < n; s++ {
			order = append(order, int32(s))
		}
		return order, nil
	}
	// Kahn's algorithm over all states.
	indeg := make([]int, n)
	for s := range c.States {
		for _, a := range c.States[s].Arcs {
			indeg[a.Next]++
		}
	}
	for s := 0; s < n; s++ {
		if indeg[s] == 0 {
			order = append(order, int32(s))
		}
	}
	for i := 0; i < len(order); i++ {
		for _, a := range c.States[order[i]].Arcs {
			if indeg[a.Next]--; indeg[a.Next] == 0 {
				order = append(order, a.Next)
			}
		}
	}
	if len(order) != n {
		return nil, ErrCyclic
	}
	return order, nil
}

// ShortestPath returns the best path of c as a linear CompactLattice, as
// Kaldi's CompactLatticeShortestPath: costs graph+acoustic summed in double
// precision, states relaxed in topological order, strict improvements only
// (so the first of equal alternatives wins), and among parallel arcs between
// two states on the path the cheapest (first on ties).
func (c *CompactLattice) ShortestPath() (*CompactLattice, error) {
	if c.Start < 0 || int(c.Start) >= len(c.States) {
		return nil, ErrNoPath
	}
	order, err := c.TopSortOrder()
	if err != nil {
		return nil, err
	}
	n := len(c.States)
	inf := float64(inf32)
	best := make([]float64, n+1)
	pred := make([]int32, n+1)
	for i := range best {
		best[i], pred[i] = inf, NoState
	}
	best[c.Start] = 0
	superfinal := int32(n)
	for _, s := range order {
		my := best[s]
		for _, a := range c.States[s].Arcs {
			if next := my + costOf(a.W); next < best[a.Next] {
				best[a.Next], pred[a.Next] = next, s
			}
		}
		if tot := my + costOf(c.States[s].Final); tot < best[superfinal] {
			best[superfinal], pred[superfinal] = tot, s
		}
	}
	var states []int32
	for cur := superfinal; cur != c.Start; {
		p := pred[cur]
		if p == NoState {
			return nil, ErrNoPath
		}
		states = append(states, p)
		cur = p
	}
	for i, j := 0, len(states)-1; i < j; i, j = i+1, j-1 {
		states[i], states[j] = states[j], states[i]
	}
	out := &CompactLattice{Start: 0}
	for range states {
		out.AddState()
	}
	for i, s := range states {
		if i+1 < len(states) {
			have := false
			var cur CompactArc
			for _, a := range c.States[s].Arcs {
				if a.Next == states[i+1] && (!have || costOf(a.W) < costOf(cur.W)) {
					cur, have = a, true
				}
			}
			cur.Next = int32(i + 1)
			out.States[i].Arcs = append(out.States[i].Arcs, cur)
		} else {
			out.States[i].Final = c.States[s].Final
		}
	}
	return out, nil
}

// LinearSequence reads a linear lattice (one path, as ShortestPath returns)
// as Kaldi's GetLinearSymbolSequence: the transition-ids (alignment), the
// words (non-zero labels) and the total weight.
func (c *CompactLattice) LinearSequence() (alignment, words []int32, w Weight, err error) {
	if c.Start < 0 {
		return nil, nil, Zero, ErrNoPath
	}
	w = One
	s := c.Start
	for steps := 0; ; steps++ {
		if steps > len(c.States) {
			return nil, nil, Zero, ErrCyclic
		}
		st := &c.States[s]
		if len(st.Arcs) == 0 {
			if st.Final.W.IsZero() {
				return nil, nil, Zero, ErrNoPath
			}
			alignment = append(alignment, st.Final.Tids...)
			w = Times(w, st.Final.W)
			return alignment, words, w, nil
		}
		if len(st.Arcs) > 1 || !st.Final.W.IsZero() {
			return nil, nil, Zero, errors.New("lattice is not linear")
		}
		a := st.Arcs[0]
		alignment = append(alignment, a.W.Tids...)
		if a.Label != 0 {
			words = append(words, a.Label)
		}
		w = Times(w, a.W.W)
		s = a.Next
	}
}
