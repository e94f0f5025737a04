package lattice

import "math"

// OracleResult is the path of a lattice closest to a reference in word edit
// distance, and its error counts (Words is the reference length).
type OracleResult struct {
	Words                                 []int32
	Correct, Sub, Ins, Del, NumWords, Err int
}

// Oracle finds the word sequence of c with the fewest errors against ref,
// as Kaldi's lattice-oracle: weights are ignored, labels in wildcards (and
// 0) are epsilons in both the lattice and the reference, and substitutions,
// insertions and deletions cost 1 each. It is a dynamic programme over
// (lattice state, reference position) in topological order rather than
// Kaldi's composition with an edit-distance transducer; the minimum is the
// same, and among equally good paths ours prefers the first arcs.
func (c *CompactLattice) Oracle(ref []int32, wildcards map[int32]bool) (*OracleResult, error) {
	if c.Start < 0 || int(c.Start) >= len(c.States) {
		return nil, ErrNoPath
	}
	order, err := c.TopSortOrder()
	if err != nil {
		return nil, err
	}
	var r []int32
	for _, w := range ref {
		if w != 0 && !wildcards[w] {
			r = append(r, w)
		}
	}
	J := len(r)
	n := len(c.States)
	const none = math.MaxInt32
	cost := make([][]int32, n)
	type back struct {
		state, arc int32 // arc -1: a deletion within the state
		j          int32
		op         int8 // 0 eps, 1 correct/sub, 2 insertion, 3 deletion
	}
	bp := make([][]back, n)
	for s := range cost {
		cost[s] = make([]int32, J+1)
		bp[s] = make([]back, J+1)
		for j := range cost[s] {
			cost[s][j] = none
		}
	}
	cost[c.Start][0] = 0
	relax := func(s int32, j int, v int32, b back) {
		if v < cost[s][j] {
			cost[s][j], bp[s][j] = v, b
		}
	}
	bestFinal, bestState := int32(none), int32(-1)
	for _, s := range order {
		cs := cost[s]
		for j := 0; j < J; j++ { // deletions of reference words
			if cs[j] != none {
				relax(s, j+1, cs[j]+1, back{s, -1, int32(j), 3})
			}
		}
		for ai, a := range c.States[s].Arcs {
			w := a.Label
			if wildcards[w] {
				w = 0
			}
			for j := 0; j <= J; j++ {
				v := cs[j]
				if v == none {
					continue
				}
				b := back{s, int32(ai), int32(j), 0}
				if w == 0 {
					relax(a.Next, j, v, b)
					continue
				}
				if j < J {
					b.op = 1
					d := int32(1)
					if w == r[j] {
						d = 0
					}
					relax(a.Next, j+1, v+d, b)
				}
				b.op = 2
				relax(a.Next, j, v+1, b)
			}
		}
		if !c.States[s].Final.W.IsZero() && cs[J] < bestFinal {
			bestFinal, bestState = cs[J], s
		}
	}
	if bestState < 0 {
		return nil, ErrNoPath
	}
	res := &OracleResult{NumWords: J}
	s, j := bestState, int32(J)
	for s != c.Start || j != 0 {
		b := bp[s][j]
		switch b.op {
		case 1:
			w := c.States[b.state].Arcs[b.arc].Label
			res.Words = append(res.Words, w)
			if w == r[b.j] {
				res.Correct++
			} else {
				res.Sub++
			}
		case 2:
			res.Words = append(res.Words, c.States[b.state].Arcs[b.arc].Label)
			res.Ins++
		case 3:
			res.Del++
		}
		s, j = b.state, b.j
	}
	for i, k := 0, len(res.Words)-1; i < k; i, k = i+1, k-1 {
		res.Words[i], res.Words[k] = res.Words[k], res.Words[i]
	}
	res.Err = res.Sub + res.Ins + res.Del
	return res, nil
}

// OraclePath is lattice-oracle's --write-lattices output: the lattice restricted to
// the oracle word sequence (the composition of a linear acceptor of the
// words with the lattice), best path kept, as a linear
func OraclePath(c *CompactLattice, words []int32, wildcards map[int32]bool) *CompactLattice {
	// The lattice's paths whose (non-wildcard) words are exactly words:
	// track (state, position) pairs, and keep the cheapest path.
	type node struct{ s, j int32 }
	order, err := c.TopSortOrder()
	if err != nil {
		return nil
	}
	type back struct {
		from node
		arc  int32
	}
	cost := map[node]float64{{c.Start, 0}: 0}
	bp := map[node]back{}
	var bestEnd node
	best, found := 0.0, false
	for _, s := range order {
		for j := int32(0); j <= int32(len(words)); j++ {
			n := node{s, j}
			v, ok := cost[n]
			if !ok {
				continue
			}
			st := &c.States[s]
			for ai, a := range st.Arcs {
				nj := j
				if a.Label != 0 && !wildcards[a.Label] {
					if j == int32(len(words)) || a.Label != words[j] {
						continue
					}
					nj++
				}
				m := node{a.Next, nj}
				nv := v + float64(a.W.W.Graph) + float64(a.W.W.Acoustic)
				if old, ok := cost[m]; !ok || nv < old {
					cost[m], bp[m] = nv, back{n, int32(ai)}
				}
			}
			if j == int32(len(words)) && !st.Final.W.IsZero() {
				if t := v + float64(st.Final.W.Graph) + float64(st.Final.W.Acoustic); !found || t < best {
					best, bestEnd, found = t, n, true
				}
			}
		}
	}
	if !found {
		return nil
	}
	var arcs []CompactArc
	for n := bestEnd; n != (node{c.Start, 0}); {
		b := bp[n]
		arcs = append(arcs, c.States[b.from.s].Arcs[b.arc])
		n = b.from
	}
	out := &CompactLattice{Start: 0}
	cur := out.AddState()
	for i := len(arcs) - 1; i >= 0; i-- {
		a := arcs[i]
		a.Next = out.AddState()
		out.States[cur].Arcs = append(out.States[cur].Arcs, a)
		cur = a.Next
	}
	out.States[cur].Final = c.States[bestEnd.s].Final
	return out
}
