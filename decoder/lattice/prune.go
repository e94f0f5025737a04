package lattice

import "math"

// TopSort renumbers the states of l so that every arc goes from a lower to a
// higher state id (start state first among its reachable set), as OpenFst's
// TopSort; it returns ErrCyclic for a lattice with cycles. A lattice already
// in that order is left alone.
func (l *Lattice) TopSort() error {
	sorted := true
	for s := range l.States {
		for _, a := range l.States[s].Arcs {
			if a.Next <= int32(s) {
				sorted = false
			}
		}
	}
	if sorted {
		return nil
	}
	n := len(l.States)
	indeg := make([]int, n)
	for s := range l.States {
		for _, a := range l.States[s].Arcs {
			indeg[a.Next]++
		}
	}
	order := make([]int32, 0, n)
	if l.Start >= 0 && indeg[l.Start] == 0 {
		order = append(order, l.Start)
	}
	for s := 0; s < n; s++ {
		if indeg[s] == 0 && int32(s) != l.Start {
			order = append(order, int32(s))
		}
	}
	for i := 0; i < len(order); i++ {
		for _, a := range l.States[order[i]].Arcs {
			if indeg[a.Next]--; indeg[a.Next] == 0 {
				order = append(order, a.Next)
			}
		}
	}
	if len(order) != n {
		return ErrCyclic
	}
	newID := make([]int32, n)
	for i, s := range order {
		newID[s] = int32(i)
	}
	states := make([]State, n)
	for i, s := range order {
		st := l.States[s]
		for j := range st.Arcs {
			st.Arcs[j].Next = newID[st.Arcs[j].Next]
		}
		states[i] = st
	}
	l.States = states
	if l.Start >= 0 {
		l.Start = newID[l.Start]
	}
	return nil
}

func latCost(w Weight) float64 { return float64(w.Graph) + float64(w.Acoustic) }

// Prune removes the arcs and final weights of l that lie on no path within
// beam of the best path, then trims what became unreachable, as Kaldi's
// PruneLattice (forward and backward Viterbi costs in double precision). It
// returns false when nothing is left.
func (l *Lattice) Prune(beam float64) (bool, error) {
	if l.Start < 0 || len(l.States) == 0 {
		return false, nil
	}
	if err := l.TopSort(); err != nil {
		return false, err
	}
	n := len(l.States)
	inf := math.Inf(1)
	fwd := make([]float64, n)
	for i := range fwd {
		fwd[i] = inf
	}
	fwd[l.Start] = 0
	best := inf
	for s := 0; s < n; s++ {
		f := fwd[s]
		for _, a := range l.States[s].Arcs {
			if c := f + latCost(a.W); c < fwd[a.Next] {
				fwd[a.Next] = c
			}
		}
		if c := f + latCost(l.States[s].Final); c < best {
			best = c
		}
	}
	cutoff := best + beam
	bwd := make([]float64, n)
	for s := n - 1; s >= 0; s-- {
		st := &l.States[s]
		b := latCost(st.Final)
		if b+fwd[s] > cutoff && b != inf {
			st.Final = Zero
		}
		kept := st.Arcs[:0]
		for _, a := range st.Arcs {
			ab := latCost(a.W) + bwd[a.Next]
			if ab < b {
				b = ab
			}
			if fwd[s]+ab <= cutoff {
				kept = append(kept, a)
			}
		}
		st.Arcs = kept
		bwd[s] = b
	}
	l.Connect()
	return len(l.States) > 0, nil
}

// Connect removes states that are not on a path from the start state to a
// final state, keeping the order of the others (OpenFst's Connect).
func (l *Lattice) Connect() {
	n := len(l.States)
	if l.Start < 0 || int(l.Start) >= n {
		l.States, l.Start = nil, NoState
		return
	}
	acc, coacc := reachable(n, l.Start,
		func(s int32, visit func(int32)) {
			for _, a := range l.States[s].Arcs {
				visit(a.Next)
			}
		},
		func(s int32) bool { return !l.States[s].Final.IsZero() })
	newID := make([]int32, n)
	k := int32(0)
	for s := 0; s < n; s++ {
		if acc[s] && coacc[s] {
			newID[s] = k
			k++
		} else {
			newID[s] = NoState
		}
	}
	if newID[l.Start] == NoState {
		l.States, l.Start = nil, NoState
		return
	}
	out := make([]State, 0, k)
	for s := 0; s < n; s++ {
		if newID[s] == NoState {
			continue
		}
		st := l.States[s]
		kept := st.Arcs[:0]
		for _, a := range st.Arcs {
			if newID[a.Next] != NoState {
				a.Next = newID[a.Next]
				kept = append(kept, a)
			}
		}
		st.Arcs = kept
		out = append(out, st)
	}
	l.States, l.Start = out, newID[l.Start]
}

// Connect removes states that are not on a successful path (OpenFst's
// Connect), keeping the order of the others.
func (c *CompactLattice) Connect() {
	n := len(c.States)
	orig := make([]int32, 0, n)
	acc, coacc := reach(c)
	for s := 0; s < n; s++ {
		if acc[s] && coacc[s] {
			orig = append(orig, int32(s))
		}
	}
	newID := make([]int32, n)
	for i := range newID {
		newID[i] = NoState
	}
	for i, s := range orig {
		newID[s] = int32(i)
	}
	if c.Start < 0 || c.Start >= int32(n) || newID[c.Start] == NoState {
		c.States, c.Start = nil, NoState
		return
	}
	out := make([]CompactState, 0, len(orig))
	for _, s := range orig {
		st := c.States[s]
		kept := st.Arcs[:0]
		for _, a := range st.Arcs {
			if newID[a.Next] != NoState {
				a.Next = newID[a.Next]
				kept = append(kept, a)
			}
		}
		st.Arcs = kept
		out = append(out, st)
	}
	c.States, c.Start = out, newID[c.Start]
}

// reach returns accessibility from the start and co-accessibility to a final
// state for every state of c.
func reach(c *CompactLattice) (acc, coacc []bool) {
	return reachable(len(c.States), c.Start,
		func(s int32, visit func(int32)) {
			for _, a := range c.States[s].Arcs {
				visit(a.Next)
			}
		},
		func(s int32) bool { return !c.States[s].Final.W.IsZero() })
}

// reachable returns, for a graph of n states whose arcs succ lists, which
// states the start reaches (acc) and which reach a state final says is
// final (coacc): depth-first, the second search over the reversed arcs.
func reachable(n int, start int32, succ func(s int32, visit func(next int32)), final func(s int32) bool) (acc, coacc []bool) {
	acc = make([]bool, n)
	coacc = make([]bool, n)
	if start < 0 || int(start) >= n {
		return
	}
	stack := []int32{start}
	acc[start] = true
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		succ(s, func(t int32) {
			if !acc[t] {
				acc[t] = true
				stack = append(stack, t)
			}
		})
	}
	rev := make([][]int32, n)
	for s := int32(0); s < int32(n); s++ {
		succ(s, func(t int32) { rev[t] = append(rev[t], s) })
		if final(s) {
			coacc[s] = true
			stack = append(stack, s)
		}
	}
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, p := range rev[s] {
			if !coacc[p] {
				coacc[p] = true
				stack = append(stack, p)
			}
		}
	}
	return
}

// ShortestPath returns the best path of an acyclic Lattice as its
// transition-ids, words and total weight (the semiring's Times and Plus:
// costs added in float32, the better by Compare kept, the first of equals).
func (l *Lattice) ShortestPath() (alignment, words []int32, w Weight, err error) {
	if l.Start < 0 || len(l.States) == 0 {
		return nil, nil, Zero, ErrNoPath
	}
	if err := l.TopSort(); err != nil {
		return nil, nil, Zero, err
	}
	n := len(l.States)
	dist := make([]Weight, n)
	type bp struct{ prev, arc int32 }
	back := make([]bp, n)
	for i := range dist {
		dist[i], back[i] = Zero, bp{NoState, -1}
	}
	dist[l.Start] = One
	bestFinal, bestState := Zero, int32(NoState)
	for s := 0; s < n; s++ {
		d := dist[s]
		if d.IsZero() {
			continue
		}
		for i, a := range l.States[s].Arcs {
			if nd := Times(d, a.W); Compare(nd, dist[a.Next]) > 0 {
				dist[a.Next], back[a.Next] = nd, bp{int32(s), int32(i)}
			}
		}
		if f := l.States[s].Final; !f.IsZero() {
			if t := Times(d, f); Compare(t, bestFinal) > 0 {
				bestFinal, bestState = t, int32(s)
			}
		}
	}
	if bestState == NoState {
		return nil, nil, Zero, ErrNoPath
	}
	for s := bestState; s != l.Start; s = back[s].prev {
		a := l.States[back[s].prev].Arcs[back[s].arc]
		if a.ILabel != 0 {
			alignment = append(alignment, a.ILabel)
		}
		if a.OLabel != 0 {
			words = append(words, a.OLabel)
		}
	}
	for i, j := 0, len(alignment)-1; i < j; i, j = i+1, j-1 {
		alignment[i], alignment[j] = alignment[j], alignment[i]
	}
	for i, j := 0, len(words)-1; i < j; i, j = i+1, j-1 {
		words[i], words[j] = words[j], words[i]
	}
	return alignment, words, bestFinal, nil
}
