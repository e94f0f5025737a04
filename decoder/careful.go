package decoder

// ModifyGraphForCarefulAlignment returns the graph for Kaldi's "careful"
// alignment (align-mapped --careful): the graph followed by a copy of
// itself that has no final states (a blind alley), so that a search that
// ate the transcript too early can wander off instead of producing a
// plausible-looking but wrong alignment. Kaldi builds it with Concat: each
// final weight becomes an epsilon arc to a final "pre-initial" state that
// leads into the copy. g is not modified.
func ModifyGraphForCarefulAlignment(g *VectorFst) *VectorFst {
	n := StateID(len(g.States))
	if n == 0 || g.Start == NoState {
		return g
	}
	out := &VectorFst{Start: g.Start, States: make([]FstState, 2*n+1)}
	pre := n
	for s := StateID(0); s < n; s++ {
		st := g.States[s]
		arcs := make([]Arc, len(st.Arcs), len(st.Arcs)+1)
		copy(arcs, st.Arcs)
		out.States[s] = FstState{Final: WeightZero, Arcs: arcs}
		if st.Final != WeightZero {
			out.States[s].Arcs = append(out.States[s].Arcs, Arc{0, 0, st.Final, pre})
		}
		rhs := make([]Arc, len(st.Arcs))
		for i, a := range st.Arcs {
			a.NextState += n + 1
			rhs[i] = a
		}
		out.States[n+1+s] = FstState{Final: WeightZero, Arcs: rhs}
	}
	out.States[pre] = FstState{Final: WeightOne, Arcs: []Arc{{0, 0, WeightOne, n + 1 + g.Start}}}
	return out
}
