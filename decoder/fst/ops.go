package fst

import (
	"fmt"
	"math"
	"slices"
)

// MakeLinearAcceptor returns the acceptor of one label sequence (Kaldi's
// MakeLinearAcceptor).
func MakeLinearAcceptor(labels []int32) *VectorFst {
	f := NewVectorFst()
	cur := f.AddState()
	f.Start = cur
	for _, l := range labels {
		next := f.AddState()
		f.AddArc(cur, Arc{ILabel: l, OLabel: l, Weight: WeightOne, NextState: next})
		cur = next
	}
	f.SetFinal(cur, WeightOne)
	return f
}

// ArcSortOutput sorts every state's arcs by output label (stable), as
// OpenFst's ArcSort with OLabelCompare.
func ArcSortOutput(f *VectorFst) {
	for s := range f.States {
		slices.SortStableFunc(f.States[s].Arcs, func(a, b Arc) int { return int(a.OLabel) - int(b.OLabel) })
	}
}

// ArcSortInput sorts every state's arcs by input label (stable).
func ArcSortInput(f *VectorFst) {
	for s := range f.States {
		slices.SortStableFunc(f.States[s].Arcs, func(a, b Arc) int { return int(a.ILabel) - int(b.ILabel) })
	}
}

// ComposeWithEpsFreeRight composes a with b when b has no input epsilons
// (a transcript acceptor, for instance): an arc of a with output epsilon
// moves alone, any other arc must match an input label of b. Only states
// reachable from the start are built; the result is then trimmed to the
// states that reach a final state (OpenFst's connect=true).
func ComposeWithEpsFreeRight(a, b *VectorFst) (*VectorFst, error) {
	for s := range b.States {
		for _, arc := range b.States[s].Arcs {
			if arc.ILabel == 0 {
				return nil, fmt.Errorf("%w: compose: right-hand FST has an input epsilon at state %d", ErrUnsupported, s)
			}
		}
	}
	out := NewVectorFst()
	if a.Start == NoState || b.Start == NoState {
		return out, nil
	}
	type pair struct{ a, b StateID }
	ids := map[pair]StateID{}
	var queue []pair
	get := func(p pair) StateID {
		if id, ok := ids[p]; ok {
			return id
		}
		id := out.AddState()
		ids[p] = id
		queue = append(queue, p)
		return id
	}
	out.Start = get(pair{a.Start, b.Start})
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		src := ids[p]
		if fa, fb := a.States[p.a].Final, b.States[p.b].Final; fa != WeightZero && fb != WeightZero {
			out.SetFinal(src, fa+fb)
		}
		for _, x := range a.States[p.a].Arcs {
			if x.OLabel == 0 {
				out.AddArc(src, Arc{x.ILabel, 0, x.Weight, get(pair{x.NextState, p.b})})
				continue
			}
			for _, y := range b.States[p.b].Arcs {
				if y.ILabel == x.OLabel {
					out.AddArc(src, Arc{x.ILabel, y.OLabel, x.Weight + y.Weight, get(pair{x.NextState, y.NextState})})
				}
			}
		}
	}
	Connect(out)
	return out, nil
}

// Connect removes the states that are not both reachable from the start and
// able to reach a final state, renumbering the rest in order (OpenFst's
// Connect). An FST with no successful path becomes empty.
func Connect(f *VectorFst) {
	n := len(f.States)
	if f.Start == NoState || n == 0 {
		f.States, f.Start = nil, NoState
		return
	}
	acc := make([]bool, n)
	stack := []StateID{f.Start}
	acc[f.Start] = true
	for len(stack) > 0 {
		s := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, a := range f.States[s].Arcs {
			if !acc[a.NextState] {
				acc[a.NextState] = true
				stack = append(stack, a.NextState)
			}
		}
	}
	// Co-accessibility over reversed arcs.
	rev := make([][]StateID, n)
	for s := range f.States {
		for _, a := range f.States[s].Arcs {
			rev[a.NextState] = append(rev[a.NextState], StateID(s))
		}
	}
	coacc := make([]bool, n)
	stack = stack[:0]
	for s := range f.States {
		if f.States[s].Final != WeightZero {
			coacc[s] = true
			stack = append(stack, StateID(s))
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
	if !acc[f.Start] || !coacc[f.Start] {
		f.States, f.Start = nil, NoState
		return
	}
	newID := make([]StateID, n)
	next := StateID(0)
	for s := 0; s < n; s++ {
		if acc[s] && coacc[s] {
			newID[s] = next
			next++
		} else {
			newID[s] = NoState
		}
	}
	states := make([]State, 0, next)
	for s := 0; s < n; s++ {
		if newID[s] == NoState {
			continue
		}
		st := f.States[s]
		arcs := st.Arcs[:0:0]
		for _, a := range st.Arcs {
			if id := newID[a.NextState]; id != NoState {
				a.NextState = id
				arcs = append(arcs, a)
			}
		}
		states = append(states, State{Final: st.Final, Arcs: arcs})
	}
	f.States = states
	f.Start = newID[f.Start]
}

// LogPlus adds two costs in the log semiring: -log(e^-a + e^-b).
func LogPlus(a, b float32) float32 {
	if a == WeightZero {
		return b
	}
	if b == WeightZero {
		return a
	}
	lo, hi := min(a, b), max(a, b)
	return lo - float32(math.Log1p(math.Exp(float64(lo-hi))))
}

// RemoveEpsilonsLog removes arcs with input and output epsilon, moving
// their weight onto the arcs (and final weights) that follow them, and
// adding the weights of epsilon paths that meet in the log semiring — what
// Kaldi's DeterminizeStarInLog does to epsilons. Arcs with an input epsilon
// but an output label are kept. It fails on an epsilon cycle.
func RemoveEpsilonsLog(f *VectorFst) error {
	n := len(f.States)
	newStates := make([]State, n)
	dist := make([]float32, n)
	for i := range dist {
		dist[i] = WeightZero
	}
	var order []StateID
	for s := 0; s < n; s++ {
		// Epsilon closure of s in topological order (DFS post-order reversed);
		// an epsilon cycle is an error.
		order = order[:0]
		state := map[StateID]uint8{} // 1 = on stack, 2 = done
		var visit func(StateID) error
		visit = func(u StateID) error {
			state[u] = 1
			for _, a := range f.States[u].Arcs {
				if a.ILabel != 0 || a.OLabel != 0 {
					continue
				}
				switch state[a.NextState] {
				case 1:
					return fmt.Errorf("%w: epsilon cycle through state %d", ErrUnsupported, a.NextState)
				case 0:
					if err := visit(a.NextState); err != nil {
						return err
					}
				}
			}
			state[u] = 2
			order = append(order, u)
			return nil
		}
		if err := visit(StateID(s)); err != nil {
			return err
		}
		slices.Reverse(order)
		dist[s] = WeightOne
		for _, u := range order {
			du := dist[u]
			for _, a := range f.States[u].Arcs {
				if a.ILabel == 0 && a.OLabel == 0 {
					dist[a.NextState] = LogPlus(dist[a.NextState], du+a.Weight)
				}
			}
		}
		ns := State{Final: WeightZero}
		for _, u := range order {
			du := dist[u]
			if fw := f.States[u].Final; fw != WeightZero {
				if u == StateID(s) {
					ns.Final = LogPlus(ns.Final, fw)
				} else {
					ns.Final = LogPlus(ns.Final, du+fw)
				}
			}
			for _, a := range f.States[u].Arcs {
				if a.ILabel == 0 && a.OLabel == 0 {
					continue
				}
				if u != StateID(s) {
					a.Weight = du + a.Weight
				}
				ns.Arcs = append(ns.Arcs, a)
			}
		}
		for _, u := range order {
			dist[u] = WeightZero
		}
		newStates[s] = ns
	}
	f.States = newStates
	Connect(f)
	return nil
}

// Quantize rounds every finite weight to a multiple of delta, as OpenFst's
// QuantizeMapper (Kaldi's MinimizeEncoded applies it with delta = 1/1024
// before minimising, so Kaldi's training graphs carry quantized weights).
func Quantize(f *VectorFst, delta float32) {
	q := func(w float32) float32 {
		if math.IsInf(float64(w), 0) || math.IsNaN(float64(w)) {
			return w
		}
		return float32(math.Floor(float64(w/delta+0.5))) * delta
	}
	for s := range f.States {
		st := &f.States[s]
		st.Final = q(st.Final)
		for i := range st.Arcs {
			st.Arcs[i].Weight = q(st.Arcs[i].Weight)
		}
	}
}

// KDelta is OpenFst's and Kaldi's default quantization step, 1/1024.
const KDelta = float32(1.0 / 1024.0)
