package hmm

import (
	"fmt"

	"github.com/strode-asr/strode/decoder/fst"
)

// AddSelfLoops adds each transition-state's self-loop to the graph, with
// weight -selfLoopScale·log P(self-loop), and multiplies the arcs leaving
// the state by -selfLoopScale·log(1 - P(self-loop)) (Kaldi's AddSelfLoops).
// With reorder the self-loop of a transition-state sits after the forward
// transition out of it (on the state the forward arc enters); states are
// split first so each has one kind of incoming transition-state.
func AddSelfLoops(tm *TransitionModel, g *fst.VectorFst, selfLoopScale float32, reorder bool) error {
	class := func(l fst.Label) (int32, error) {
		if l == 0 {
			return 0, nil
		}
		if !tm.ValidTransitionID(l) {
			return 0, fmt.Errorf("%w: graph input label %d is not a transition-id (model has %d)", ErrModel, l, tm.NumTransitionIDs())
		}
		if tm.IsSelfLoop(l) {
			return 0, fmt.Errorf("%w: AddSelfLoops: graph already has self-loops", ErrModel)
		}
		return tm.TransitionIDToTransitionState(l), nil
	}
	if !reorder {
		return fmt.Errorf("%w: --reorder=false", fst.ErrUnsupported)
	}
	if err := makePrecedingInputSymbolsSameClass(g, class); err != nil {
		return err
	}
	stateIn := make([]int32, len(g.States))
	for i := range stateIn {
		stateIn[i] = -1
	}
	for s := range g.States {
		for _, a := range g.States[s].Arcs {
			c, _ := class(a.ILabel)
			stateIn[a.NextState] = c
		}
	}
	for s := range g.States {
		ts := stateIn[s]
		if ts <= 0 {
			continue
		}
		w := -tm.NonSelfLoopLogProb(ts) * selfLoopScale
		st := &g.States[s]
		if st.Final != fst.WeightZero {
			st.Final += w
		}
		for i := range st.Arcs {
			st.Arcs[i].Weight += w
		}
		if tid := tm.SelfLoopOf(ts); tid != 0 {
			st.Arcs = append(st.Arcs, fst.Arc{ILabel: tid, OLabel: 0, Weight: -tm.TransitionLogProb(tid) * selfLoopScale, NextState: fst.StateID(s)})
		}
	}
	return nil
}

// makePrecedingInputSymbolsSameClass makes all arcs entering a state have
// input labels of one class (the start state counts as entered by
// epsilon, class 0), exactly as Kaldi's function of that name: for a state
// entered by several classes, each non-epsilon arc into it is redirected to
// a new state, one per (state, class), that has a single epsilon arc into
// the original state.
func makePrecedingInputSymbolsSameClass(g *fst.VectorFst, class func(fst.Label) (int32, error)) error {
	const noClass = -1
	n := len(g.States)
	classes := make([]int32, n)
	for i := range classes {
		classes[i] = noClass
	}
	if g.Start != fst.NoState {
		classes[g.Start] = 0
	}
	bad := make([]bool, n)
	anyBad := false
	for s := range g.States {
		for _, a := range g.States[s].Arcs {
			c, err := class(a.ILabel)
			if err != nil {
				return err
			}
			switch classes[a.NextState] {
			case noClass:
				classes[a.NextState] = c
			case c:
			default:
				bad[a.NextState] = true
				anyBad = true
			}
		}
	}
	if !anyBad {
		return nil
	}
	type pair struct {
		s fst.StateID
		c int32
	}
	dummy := map[pair]fst.StateID{}
	for s := 0; s < n; s++ {
		for i := range g.States[s].Arcs {
			a := g.States[s].Arcs[i]
			if a.ILabel == 0 || !bad[a.NextState] {
				continue
			}
			c, _ := class(a.ILabel)
			p := pair{a.NextState, c}
			d, ok := dummy[p]
			if !ok {
				d = g.AddState()
				g.AddArc(d, fst.Arc{Weight: fst.WeightOne, NextState: a.NextState})
				dummy[p] = d
			}
			g.States[s].Arcs[i].NextState = d
		}
	}
	return nil
}
