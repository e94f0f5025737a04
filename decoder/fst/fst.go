package fst

import (
	"fmt"
	"math"
)

// Label is an FST arc label; 0 is epsilon (OpenFst's kNoLabel is -1).
type Label = int32

// StateID numbers FST states from 0; NoState (-1) is OpenFst's kNoStateId.
type StateID = int32

// NoState is the start state of an empty FST.
const NoState StateID = -1

// Tropical weights are float32 costs (negated log-probabilities): Times is
// +, Plus is min, One is 0 and Zero is +Inf, as OpenFst's TropicalWeight.
var (
	WeightZero = float32(math.Inf(1))
	WeightOne  = float32(0)
)

// Arc is OpenFst's StdArc: the field order and widths equal its in-memory and
// on-disk layout (ilabel, olabel, weight, nextstate; 16 bytes).
type Arc struct {
	ILabel, OLabel Label
	Weight         float32
	NextState      StateID
}

// State is one state: its final weight (WeightZero when not final) and its
// outgoing arcs in order.
type State struct {
	Final float32
	Arcs  []Arc
}

// VectorFst is a mutable FST over StdArc, OpenFst's VectorFst<StdArc>. Arc
// iteration is a plain slice range over States[s].Arcs. ConstFst files read
// into this same type (their arcs share one backing array).
type VectorFst struct {
	Start  StateID
	States []State
	// ISymbols and OSymbols are the symbol tables stored in the file header,
	// nil when absent (Kaldi's FSTs carry none).
	ISymbols, OSymbols *SymbolTable
}

// NewVectorFst returns an empty FST (no states, no start state).
func NewVectorFst() *VectorFst { return &VectorFst{Start: NoState} }

// NumStates is the number of states.
func (f *VectorFst) NumStates() int { return len(f.States) }

// NumArcs counts the arcs of all states.
func (f *VectorFst) NumArcs() int {
	n := 0
	for i := range f.States {
		n += len(f.States[i].Arcs)
	}
	return n
}

// AddState appends a non-final state with no arcs and returns its id.
func (f *VectorFst) AddState() StateID {
	f.States = append(f.States, State{Final: WeightZero})
	return StateID(len(f.States) - 1)
}

// AddArc appends an arc leaving state s.
func (f *VectorFst) AddArc(s StateID, a Arc) {
	f.States[s].Arcs = append(f.States[s].Arcs, a)
}

// SetFinal sets the final weight of s (WeightZero makes it non-final).
func (f *VectorFst) SetFinal(s StateID, w float32) { f.States[s].Final = w }

// IsFinal reports whether s has a final weight other than Zero.
func (f *VectorFst) IsFinal(s StateID) bool { return !math.IsInf(float64(f.States[s].Final), 1) }

// Copy returns a deep copy (symbol tables are shared).
func (f *VectorFst) Copy() *VectorFst {
	g := &VectorFst{Start: f.Start, States: make([]State, len(f.States)), ISymbols: f.ISymbols, OSymbols: f.OSymbols}
	for i, s := range f.States {
		g.States[i] = State{Final: s.Final, Arcs: append([]Arc(nil), s.Arcs...)}
	}
	return g
}

// Validate checks that the start state and every arc's next state exist.
func (f *VectorFst) Validate() error {
	n := StateID(len(f.States))
	if f.Start != NoState && (f.Start < 0 || f.Start >= n) {
		return fmt.Errorf("%w: start state %d out of range [0,%d)", ErrBadFst, f.Start, n)
	}
	for s := range f.States {
		for i, a := range f.States[s].Arcs {
			if a.NextState < 0 || a.NextState >= n {
				return fmt.Errorf("%w: state %d arc %d goes to state %d, out of range [0,%d)", ErrBadFst, s, i, a.NextState, n)
			}
		}
	}
	return nil
}

// Equal reports whether f and g have the same states, arcs (in order) and
// weights, compared exactly. (OpenFst's fstequal uses a tolerance; callers
// wanting one use ApproxEqual.)
func (f *VectorFst) Equal(g *VectorFst) bool { return f.ApproxEqual(g, 0) }

// ApproxEqual is Equal with weights compared within delta.
func (f *VectorFst) ApproxEqual(g *VectorFst, delta float32) bool {
	if f.Start != g.Start || len(f.States) != len(g.States) {
		return false
	}
	weq := func(a, b float32) bool {
		if a == b {
			return true
		}
		return float32(math.Abs(float64(a-b))) <= delta
	}
	for s := range f.States {
		fs, gs := &f.States[s], &g.States[s]
		if !weq(fs.Final, gs.Final) || len(fs.Arcs) != len(gs.Arcs) {
			return false
		}
		for i, a := range fs.Arcs {
			b := gs.Arcs[i]
			if a.ILabel != b.ILabel || a.OLabel != b.OLabel || a.NextState != b.NextState || !weq(a.Weight, b.Weight) {
				return false
			}
		}
	}
	return true
}
