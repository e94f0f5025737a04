package fstalg

import (
	"slices"

	"github.com/strode-asr/strode/decoder/fst"
)

// RemoveSymbols replaces every input label in syms by epsilon (Kaldi's
// fstrmsymbols, as mkgraph.sh runs it on the transition-id
// disambiguation symbols).
func RemoveSymbols(f *fst.VectorFst, syms []fst.Label) {
	set := slices.Clone(syms)
	slices.Sort(set)
	for s := range f.States {
		arcs := f.States[s].Arcs
		for i := range arcs {
			if _, ok := slices.BinarySearch(set, arcs[i].ILabel); ok {
				arcs[i].ILabel = 0
			}
		}
	}
}

// RemoveEpsLocal removes epsilon arcs (input and output epsilon) where
// that does not add arcs, in the tropical semiring, as Kaldi's
// RemoveEpsLocal (fstrmepslocal): an epsilon arc s→t is removed when it
// is the only arc into t (t's arcs and final weight move to s, with the
// epsilon's weight added) or the only arc out of a non-final s (the arcs
// into s are redirected to t, with the weight added). Other epsilons stay,
// so the result is equivalent and never larger. The FST is connected
// afterwards.
func RemoveEpsLocal(f *fst.VectorFst) {
	n := len(f.States)
	if n == 0 {
		return
	}
	inDeg := make([]int, n)
	for s := range f.States {
		for _, a := range f.States[s].Arcs {
			inDeg[a.NextState]++
		}
	}
	if f.Start != fst.NoState {
		inDeg[f.Start]++ // the start counts as entered
	}
	// Case 1: the epsilon is the only way into t: splice t into s.
	for changed := true; changed; {
		changed = false
		for s := range f.States {
			st := &f.States[s]
			for i := 0; i < len(st.Arcs); i++ {
				a := st.Arcs[i]
				t := a.NextState
				if a.ILabel != 0 || a.OLabel != 0 || inDeg[t] != 1 || t == fst.StateID(s) {
					continue
				}
				ts := f.States[t]
				st.Arcs = slices.Delete(st.Arcs, i, i+1)
				i--
				for _, b := range ts.Arcs {
					b.Weight += a.Weight
					st.Arcs = append(st.Arcs, b)
				}
				if ts.Final != fst.WeightZero {
					st.Final = min(st.Final, ts.Final+a.Weight)
				}
				f.States[t] = fst.State{Final: fst.WeightZero}
				inDeg[t] = 0
				changed = true
			}
		}
	}
	// Case 2: the epsilon is the only way out of a non-final s: arcs into
	// s go straight to t.
	skip := make([]fst.StateID, n)
	skipW := make([]float32, n)
	for s := range f.States {
		skip[s] = fst.NoState
		st := f.States[s]
		if len(st.Arcs) == 1 && st.Final == fst.WeightZero && fst.StateID(s) != f.Start {
			if a := st.Arcs[0]; a.ILabel == 0 && a.OLabel == 0 && a.NextState != fst.StateID(s) {
				skip[s], skipW[s] = a.NextState, a.Weight
			}
		}
	}
	resolve := func(t fst.StateID) (fst.StateID, float32) {
		w := float32(0)
		for steps := 0; skip[t] != fst.NoState && steps < n; steps++ {
			w += skipW[t]
			t = skip[t]
		}
		return t, w
	}
	for s := range f.States {
		if skip[s] != fst.NoState {
			continue
		}
		arcs := f.States[s].Arcs
		for i := range arcs {
			t, w := resolve(arcs[i].NextState)
			arcs[i].NextState = t
			arcs[i].Weight += w
		}
	}
	fst.Connect(f)
}
