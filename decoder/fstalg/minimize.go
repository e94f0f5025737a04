package fstalg

import (
	"encoding/binary"
	"math"
	"slices"

	"github.com/strode-asr/strode/decoder/fst"
)

// MinimizeEncoded minimizes f in place as Kaldi's MinimizeEncoded: weights
// are quantized to delta, then f is minimized as the unweighted acceptor
// whose labels encode (ilabel, olabel, weight) and whose final weights
// are part of the state's identity, then decoded. No weights are pushed,
// so only states with identical futures merge; the result accepts the
// same weighted relation. f should be deterministic on the encoded
// labels (it is after DeterminizeStar); on other inputs states that are
// bisimilar are still merged, which is always safe.
//
// The partition is refined Moore-style: a state's signature is its class
// and the sorted (ilabel, olabel, weight, class of next state) of its
// arcs; rounds repeat until no class splits. The result is connected and
// its states are numbered in breadth-first order from the start.
func MinimizeEncoded(f *fst.VectorFst, delta float32) {
	if delta <= 0 {
		delta = fst.KDelta
	}
	fst.Quantize(f, delta)
	fst.Connect(f)
	n := len(f.States)
	if n == 0 {
		return
	}
	class := make([]int32, n)
	// Initial partition: by final weight.
	{
		ids := map[uint32]int32{}
		for s := range f.States {
			k := math.Float32bits(f.States[s].Final)
			c, ok := ids[k]
			if !ok {
				c = int32(len(ids))
				ids[k] = c
			}
			class[s] = c
		}
	}
	numClasses := -1
	next := make([]int32, n)
	type sigArc struct {
		i, o fst.Label
		w    uint32
		c    int32
	}
	var arcs []sigArc
	var key []byte
	for {
		ids := make(map[string]int32, n)
		for s := range f.States {
			arcs = arcs[:0]
			for _, a := range f.States[s].Arcs {
				arcs = append(arcs, sigArc{a.ILabel, a.OLabel, math.Float32bits(a.Weight), class[a.NextState]})
			}
			slices.SortFunc(arcs, func(x, y sigArc) int {
				switch {
				case x.i != y.i:
					return int(x.i) - int(y.i)
				case x.o != y.o:
					return int(x.o) - int(y.o)
				case x.w != y.w:
					if x.w < y.w {
						return -1
					}
					return 1
				}
				return int(x.c) - int(y.c)
			})
			arcs = slices.Compact(arcs)
			key = binary.LittleEndian.AppendUint32(key[:0], uint32(class[s]))
			for _, a := range arcs {
				key = binary.LittleEndian.AppendUint32(key, uint32(a.i))
				key = binary.LittleEndian.AppendUint32(key, uint32(a.o))
				key = binary.LittleEndian.AppendUint32(key, a.w)
				key = binary.LittleEndian.AppendUint32(key, uint32(a.c))
			}
			c, ok := ids[string(key)]
			if !ok {
				c = int32(len(ids))
				ids[string(key)] = c
			}
			next[s] = c
		}
		class, next = next, class
		if len(ids) == numClasses {
			break
		}
		numClasses = len(ids)
	}
	// Build the quotient, numbering classes breadth-first from the start.
	newID := make([]fst.StateID, numClasses)
	for i := range newID {
		newID[i] = fst.NoState
	}
	rep := make([]fst.StateID, numClasses)
	for s := n - 1; s >= 0; s-- {
		rep[class[s]] = fst.StateID(s)
	}
	out := make([]fst.State, 0, numClasses)
	order := []int32{class[f.Start]}
	newID[class[f.Start]] = 0
	for head := 0; head < len(order); head++ {
		c := order[head]
		old := f.States[rep[c]]
		st := fst.State{Final: old.Final, Arcs: make([]fst.Arc, 0, len(old.Arcs))}
		for _, a := range old.Arcs {
			nc := class[a.NextState]
			if newID[nc] == fst.NoState {
				newID[nc] = fst.StateID(len(order))
				order = append(order, nc)
			}
			a.NextState = newID[nc]
			if !slices.Contains(st.Arcs, a) {
				st.Arcs = append(st.Arcs, a)
			}
		}
		out = append(out, st)
	}
	f.States = out
	f.Start = 0
}
