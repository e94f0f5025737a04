package lattice

import (
	"encoding/binary"
	"math"
)

// DeterminizePrunedReport is DeterminizePruned with Kaldi's success flag:
// reached is false when the determinization stopped (max-mem) short of the
// beam asked, so that its output is pruned tighter than that beam (Kaldi's
// DeterminizeLatticePruned returning false).
func DeterminizePrunedReport(in *Lattice, beam float64, opts DeterminizeOptions) (out *CompactLattice, reached bool, err error) {
	asked := beam
	for iter := 0; ; iter++ {
		var effective float64
		out, effective, err = determinizeOnce(in, beam, opts)
		if err != nil {
			return out, false, err
		}
		if effective >= asked || math.IsInf(beam, 1) {
			return out, true, nil
		}
		if effective >= beam*opts.RetryCutoff || iter+1 == determinizeMaxIters {
			return out, false, nil
		}
		effective = max(effective, 0)
		beam = max(beam*math.Sqrt(effective/beam), beam/2)
		if opts.Warn != nil {
			opts.Warn("Pruned state-level lattice with beam " + g6(beam) + " and retrying determinization with that beam.")
		}
	}
}

// MergeEquivalentStates is the minimization lattice-determinize-pruned
// --minimize asks for, on an acyclic CompactLattice: states with the same
// final weight and the same arcs (label, weight, transition-ids, and
// destinations already merged) are merged, bottom-up, so that the result
// accepts the same weighted word sequences with their transition-id
// strings. (Kaldi first pushes strings and weights towards the start,
// which lets more states merge; this merges what is equal as it stands.)
// The lattice must be acyclic (ErrCyclic otherwise); the result is
// connected and numbered in topological order.
func (c *CompactLattice) MergeEquivalentStates() error {
	c.Connect()
	if c.Start == NoState {
		return nil
	}
	order, err := c.TopSortOrder()
	if err != nil {
		return err
	}
	class := make([]int32, len(c.States))
	sigs := map[string]int32{}
	var rep []int32 // class → representative state
	var key []byte
	putW := func(w CompactWeight) {
		key = binary.LittleEndian.AppendUint32(key, math.Float32bits(w.W.Graph))
		key = binary.LittleEndian.AppendUint32(key, math.Float32bits(w.W.Acoustic))
		key = binary.LittleEndian.AppendUint32(key, uint32(len(w.Tids)))
		for _, t := range w.Tids {
			key = binary.LittleEndian.AppendUint32(key, uint32(t))
		}
	}
	for i := len(order) - 1; i >= 0; i-- {
		s := order[i]
		st := &c.States[s]
		key = key[:0]
		putW(st.Final)
		for _, a := range st.Arcs {
			key = binary.LittleEndian.AppendUint32(key, uint32(a.Label))
			key = binary.LittleEndian.AppendUint32(key, uint32(class[a.Next]))
			putW(a.W)
		}
		if s == c.Start {
			key = append(key, 's') // keep the start state its own
		}
		id, ok := sigs[string(key)]
		if !ok {
			id = int32(len(rep))
			sigs[string(key)] = id
			rep = append(rep, s)
		}
		class[s] = id
	}
	// Number the classes in the topological order of their representatives.
	newID := make([]int32, len(rep))
	for i := range newID {
		newID[i] = NoState
	}
	next := int32(0)
	out := make([]CompactState, 0, len(rep))
	for _, s := range order {
		k := class[s]
		if newID[k] != NoState || rep[k] != s {
			continue
		}
		newID[k] = next
		next++
		out = append(out, c.States[s])
	}
	for i := range out {
		for j := range out[i].Arcs {
			out[i].Arcs[j].Next = newID[class[out[i].Arcs[j].Next]]
		}
	}
	c.States, c.Start = out, newID[class[c.Start]]
	return nil
}
