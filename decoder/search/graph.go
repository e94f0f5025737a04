package search

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/decoder"
)

// arc is a graph arc in the search's flat layout.
type arc struct {
	ilabel, olabel int32
	weight         float32
	next           int32
}

// Graph is a decoding graph laid out for search: per state, its emitting arcs
// (input label ≠ 0) and its epsilon arcs, each in the graph's order, in two
// flat slices, and its final cost.
type Graph struct {
	Start int32
	final []float32
	// ranges[s] locates state s's arcs: emit[r.emitLo:r.emitHi] and
	// eps[r.epsLo:r.epsHi]. One 16-byte record per state, so the search's
	// look-up of a state (a cache miss on a large graph) costs one miss.
	ranges    []stateRanges
	emit      []arc
	eps       []arc
	maxILabel int32
}

type stateRanges struct{ emitLo, emitHi, epsLo, epsHi int32 }

// NewGraph lays out f for search. It fails on a graph with no start state.
func NewGraph(f *decoder.VectorFst) (*Graph, error) {
	if f.Start < 0 || int(f.Start) >= len(f.States) {
		return nil, fmt.Errorf("decoding graph has no start state")
	}
	n := len(f.States)
	g := &Graph{Start: f.Start, final: make([]float32, n), ranges: make([]stateRanges, n)}
	ne, nn := 0, 0
	for _, st := range f.States {
		for _, a := range st.Arcs {
			if a.ILabel != 0 {
				ne++
			} else {
				nn++
			}
		}
	}
	g.emit = make([]arc, 0, ne)
	g.eps = make([]arc, 0, nn)
	for s, st := range f.States {
		g.final[s] = st.Final
		r := &g.ranges[s]
		r.emitLo, r.epsLo = int32(len(g.emit)), int32(len(g.eps))
		for _, a := range st.Arcs {
			if a.NextState < 0 || int(a.NextState) >= n {
				return nil, fmt.Errorf("decoding graph: state %d has an arc to state %d of %d", s, a.NextState, n)
			}
			x := arc{a.ILabel, a.OLabel, a.Weight, a.NextState}
			if a.ILabel != 0 {
				g.emit = append(g.emit, x)
				g.maxILabel = max(g.maxILabel, a.ILabel)
			} else {
				g.eps = append(g.eps, x)
			}
		}
		r.emitHi, r.epsHi = int32(len(g.emit)), int32(len(g.eps))
	}
	return g, nil
}

// NumStates is the number of graph states.
func (g *Graph) NumStates() int { return len(g.final) }

// MaxInputLabel is the largest transition-id on the graph's arcs.
func (g *Graph) MaxInputLabel() int32 { return g.maxILabel }

func (g *Graph) emitting(s int32) []arc {
	r := &g.ranges[s]
	return g.emit[r.emitLo:r.emitHi]
}
func (g *Graph) epsilons(s int32) []arc {
	r := &g.ranges[s]
	return g.eps[r.epsLo:r.epsHi]
}
func (g *Graph) hasEpsilons(s int32) bool {
	r := &g.ranges[s]
	return r.epsHi > r.epsLo
}

var inf32 = float32(math.Inf(1))
