package search

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/decoder/fst"
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
	// first[s] locates state s's arcs: emit[first[s].emit:first[s+1].emit]
	// and eps[first[s].eps:first[s+1].eps] (one entry more than states).
	// An 8-byte record per state, s's and s+1's usually in one cache line,
	// so the search's look-up of a state (a cache miss on a large graph)
	// usually costs one miss, in a table half the size of four offsets.
	first     []stateFirst
	emit      []arc
	eps       []arc
	maxILabel int32
	// epsBits has bit s set when state s has epsilon arcs: the
	// non-emitting pass asks this of every token, and the bitset stays in
	// the first-level cache where first[] would miss.
	epsBits []uint64
}

type stateFirst struct{ emit, eps int32 }

// NewGraph lays out f for search. It fails on a graph with no start state.
func NewGraph(f *fst.VectorFst) (*Graph, error) {
	if f.Start < 0 || int(f.Start) >= len(f.States) {
		return nil, fmt.Errorf("decoding graph has no start state")
	}
	n := len(f.States)
	g := &Graph{Start: f.Start, final: make([]float32, n), first: make([]stateFirst, n+1), epsBits: make([]uint64, (n+63)/64)}
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
		g.first[s] = stateFirst{int32(len(g.emit)), int32(len(g.eps))}
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
		if int32(len(g.eps)) > g.first[s].eps {
			g.epsBits[s/64] |= 1 << (s % 64)
		}
	}
	g.first[n] = stateFirst{int32(len(g.emit)), int32(len(g.eps))}
	return g, nil
}

// NumStates is the number of graph states.
func (g *Graph) NumStates() int { return len(g.final) }

// MaxInputLabel is the largest transition-id on the graph's arcs.
func (g *Graph) MaxInputLabel() int32 { return g.maxILabel }

func (g *Graph) emitting(s int32) []arc {
	return g.emit[g.first[s].emit:g.first[s+1].emit]
}
func (g *Graph) epsilons(s int32) []arc {
	return g.eps[g.first[s].eps:g.first[s+1].eps]
}
func (g *Graph) hasEpsilons(s int32) bool {
	return g.epsBits[uint32(s)/64]&(1<<(uint32(s)%64)) != 0
}

var inf32 = float32(math.Inf(1))
