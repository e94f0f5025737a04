package lattice

import (
	"errors"
	"slices"
)

// StateTimes is Kaldi's CompactLatticeStateTimes: the frame at which each
// state is reached (the number of transition-ids on any path from the start
// to it; Kaldi's lattices give every path the same count) and the length
// of the utterance. States unreachable from the start get -1.
func (c *CompactLattice) StateTimes() (times []int32, frames int32, err error) {
	order, err := c.TopSortOrder()
	if err != nil {
		return nil, 0, err
	}
	times = make([]int32, len(c.States))
	for i := range times {
		times[i] = -1
	}
	if c.Start < 0 || int(c.Start) >= len(c.States) {
		return times, 0, ErrNoPath
	}
	times[c.Start] = 0
	frames = -1
	for _, s := range order {
		t := times[s]
		if t < 0 {
			continue
		}
		st := &c.States[s]
		for _, a := range st.Arcs {
			if nt := t + int32(len(a.W.Tids)); times[a.Next] < 0 {
				times[a.Next] = nt
			} else if times[a.Next] != nt {
				return nil, 0, errors.New("lattice paths reach a state at different frames")
			}
		}
		if !st.Final.W.IsZero() {
			if ft := t + int32(len(st.Final.Tids)); frames < 0 {
				frames = ft
			} else if frames != ft {
				return nil, 0, errors.New("lattice paths have different numbers of frames")
			}
		}
	}
	if frames < 0 {
		frames = 0
	}
	return times, frames, nil
}

// WordAlignment is Kaldi's CompactLatticeToWordAlignment for a linear,
// word-aligned lattice (lattice-1best | lattice-align-words): each arc's
// word (0 for silence, kept), its first frame and its number of frames.
// finalTids reports transition-ids on the final weight, which a
// word-aligned lattice does not have (times are then approximate).
func (c *CompactLattice) WordAlignment() (words, begin, length []int32, finalTids bool, err error) {
	if c.Start < 0 || int(c.Start) >= len(c.States) {
		return nil, nil, nil, false, errors.New("empty lattice")
	}
	s, t := c.Start, int32(0)
	for steps := 0; ; steps++ {
		if steps > len(c.States) {
			return nil, nil, nil, false, ErrCyclic
		}
		st := &c.States[s]
		if !st.Final.W.IsZero() {
			if len(st.Arcs) != 0 {
				return nil, nil, nil, false, errors.New("lattice is not linear")
			}
			return words, begin, length, len(st.Final.Tids) > 0, nil
		}
		if len(st.Arcs) != 1 {
			return nil, nil, nil, false, errors.New("lattice is not linear")
		}
		a := st.Arcs[0]
		n := int32(len(a.W.Tids))
		words, begin, length = append(words, a.Label), append(begin, t), append(length, n)
		t += n
		s = a.Next
	}
}

// NBest returns up to n best paths of an acyclic lattice, best first, each
// as a linear CompactLattice with the arcs (and final weight) it takes, as
// Kaldi's fst::ShortestPath(lat, &nbest, n) and ConvertNbestToVector:
// distinct paths, ranked by graph+acoustic cost summed in double precision;
// equal costs keep the order of the arcs (a final weight before the arcs).
func (c *CompactLattice) NBest(n int) ([]*CompactLattice, error) {
	if c.Start < 0 || int(c.Start) >= len(c.States) || n <= 0 {
		return nil, nil
	}
	order, err := c.TopSortOrder()
	if err != nil {
		return nil, err
	}
	// best[s] lists the n cheapest ways from s to the end: take arc
	// `arc` (-1: stop with the final weight) then way `sub` of its next
	// state.
	type way struct {
		cost     float64
		arc, sub int32
	}
	best := make([][]way, len(c.States))
	for i := len(order) - 1; i >= 0; i-- {
		s := order[i]
		st := &c.States[s]
		var ws []way
		if !st.Final.W.IsZero() {
			ws = append(ws, way{costOf(st.Final), -1, 0})
		}
		for ai, a := range st.Arcs {
			if a.W.W.IsZero() {
				continue
			}
			ac := costOf(a.W)
			for j, w := range best[a.Next] {
				ws = append(ws, way{ac + w.cost, int32(ai), int32(j)})
			}
		}
		slices.SortStableFunc(ws, func(a, b way) int {
			switch {
			case a.cost < b.cost:
				return -1
			case a.cost > b.cost:
				return 1
			}
			return 0
		})
		if len(ws) > n {
			ws = ws[:n]
		}
		best[s] = ws
	}
	var out []*CompactLattice
	for k := range best[c.Start] {
		p := &CompactLattice{Start: 0}
		cur := p.AddState()
		s, j := c.Start, int32(k)
		for {
			w := best[s][j]
			if w.arc < 0 {
				p.States[cur].Final = c.States[s].Final
				break
			}
			a := c.States[s].Arcs[w.arc]
			to := a.Next
			a.Next = p.AddState()
			p.States[cur].Arcs = append(p.States[cur].Arcs, a)
			cur, s, j = a.Next, to, w.sub
		}
		out = append(out, p)
	}
	return out, nil
}
