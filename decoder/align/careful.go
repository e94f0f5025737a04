package align

import "github.com/strode-asr/strode/decoder/fst"

// ModifyGraphForCarefulAlignment returns the graph for Kaldi's "careful"
// alignment (align-mapped --careful): the graph followed by a copy of
// itself that has no final states (a blind alley), so that a search that
// ate the transcript too early can wander off instead of producing a
// plausible-looking but wrong alignment. Kaldi builds it with Concat: each
// final weight becomes an epsilon arc to a final "pre-initial" state that
// leads into the copy. g is not modified.
func ModifyGraphForCarefulAlignment(g *fst.VectorFst) *fst.VectorFst {
	n := fst.StateID(len(g.States))
	if n == 0 || g.Start == fst.NoState {
		return g
	}
	out := &fst.VectorFst{Start: g.Start, States: make([]fst.State, 2*n+1)}
	pre := n
	for s := fst.StateID(0); s < n; s++ {
		st := g.States[s]
		arcs := make([]fst.Arc, len(st.Arcs), len(st.Arcs)+1)
		copy(arcs, st.Arcs)
		out.States[s] = fst.State{Final: fst.WeightZero, Arcs: arcs}
		if st.Final != fst.WeightZero {
			out.States[s].Arcs = append(out.States[s].Arcs, fst.Arc{Weight: st.Final, NextState: pre})
		}
		rhs := make([]fst.Arc, len(st.Arcs))
		for i, a := range st.Arcs {
			a.NextState += n + 1
			rhs[i] = a
		}
		out.States[n+1+s] = fst.State{Final: fst.WeightZero, Arcs: rhs}
	}
	out.States[pre] = fst.State{Final: fst.WeightOne, Arcs: []fst.Arc{{Weight: fst.WeightOne, NextState: n + 1 + g.Start}}}
	return out
}
