package fstalg

import (
	"encoding/binary"
	"fmt"
	"math"
	"slices"

	"github.com/strode-asr/strode/decoder/fst"
)

// DeterminizeOptions control DeterminizeStar.
type DeterminizeOptions struct {
	// Semiring in which weights of paths with the same input and output
	// are added: Log is fstdeterminizestar --use-log=true (mkgraph.sh's
	// choice), Tropical keeps the best of them.
	Semiring Semiring
	// Delta is the tolerance for comparing weights (subsets whose
	// residual weights agree within it are the same state): --delta,
	// default 1/1024.
	Delta float32
	// MaxStates bounds the output (0: none): --max-states.
	MaxStates int
}

// DefaultDeterminizeOptions are fstdeterminizestar's defaults with
// --use-log=true, as mkgraph.sh runs it.
func DefaultDeterminizeOptions() DeterminizeOptions {
	return DeterminizeOptions{Semiring: Log, Delta: fst.KDelta}
}

// element is a member of a determinization subset: an input state, the
// output labels read but not yet emitted (a stringTrie id) and the
// residual weight.
type element struct {
	state fst.StateID
	str   int32
	w     float32
}

// DeterminizeStar returns a deterministic FST equivalent to f, as Kaldi's
// DeterminizeStar: input epsilons are removed during determinization
// (each subset is closed under input-epsilon arcs), output labels are
// delayed as residual strings until all paths of a subset agree on them,
// and weights are normalised so each subset stores residuals relative to
// the weight already emitted. When the emitted output of a transition or a
// final weight is longer than one label, it is spelled out on a chain of
// arcs with input epsilon (so the result has input epsilons only on such
// chains, and stays input-deterministic in OpenFst's sense).
//
// f must be functional: two paths with the same input must give the same
// output (Kaldi's disambiguation symbols make HCLG and LG so); otherwise
// ErrNonFunctional is returned. Inputs that have no finite deterministic
// equivalent (the twins property fails) stop at MaxStates.
func DeterminizeStar(f *fst.VectorFst, opt DeterminizeOptions) (*fst.VectorFst, error) {
	if opt.Delta <= 0 {
		opt.Delta = fst.KDelta
	}
	out := fst.NewVectorFst()
	if f.Start == fst.NoState {
		return out, nil
	}
	if err := f.Validate(); err != nil {
		return nil, fmt.Errorf("determinize: %w", err)
	}
	d := &determinizer{f: f, opt: opt, out: out, strs: newStringTrie(), ids: map[string]fst.StateID{}}
	start, err := d.closure([]element{{state: f.Start, str: 0, w: fst.WeightOne}})
	if err != nil {
		return nil, err
	}
	out.Start = d.stateOf(start)
	for head := 0; head < len(d.subsets); head++ {
		if opt.MaxStates > 0 && out.NumStates() > opt.MaxStates {
			return nil, fmt.Errorf("%w: determinization exceeds %d states (input not determinizable?)", ErrTooLarge, opt.MaxStates)
		}
		if err := d.expand(fst.StateID(head)); err != nil {
			return nil, err
		}
	}
	return out, nil
}

type determinizer struct {
	f       *fst.VectorFst
	opt     DeterminizeOptions
	out     *fst.VectorFst
	strs    *stringTrie
	ids     map[string]fst.StateID
	subsets [][]element // by output state; chain states have none
	key     []byte
}

// stateOf returns the output state of a normalised subset sorted by
// state, creating it when new. Subsets are keyed by states, residual
// strings and residual weights quantized to Delta.
func (d *determinizer) stateOf(sub []element) fst.StateID {
	k := d.key[:0]
	for _, e := range sub {
		k = binary.LittleEndian.AppendUint32(k, uint32(e.state))
		k = binary.LittleEndian.AppendUint32(k, uint32(e.str))
		k = binary.LittleEndian.AppendUint64(k, uint64(int64(math.Floor(float64(e.w/d.opt.Delta)+0.5))))
	}
	d.key = k
	if id, ok := d.ids[string(k)]; ok {
		return id
	}
	id := d.out.AddState()
	d.ids[string(k)] = id
	for len(d.subsets) <= int(id) {
		d.subsets = append(d.subsets, nil)
	}
	d.subsets[id] = sub
	return id
}

// closure extends a subset (unique states) with everything reachable by
// input-epsilon arcs, adding the weights of converging paths in the
// semiring with Mohri's residual shortest-distance algorithm. The result
// is sorted by state.
func (d *determinizer) closure(sub []element) ([]element, error) {
	pos := make(map[fst.StateID]int, len(sub))
	resid := make([]float32, len(sub))
	queued := make([]bool, len(sub))
	queue := make([]int, 0, len(sub))
	for i, e := range sub {
		pos[e.state] = i
		resid[i] = e.w
		queued[i] = true
		queue = append(queue, i)
	}
	pops := 0
	for len(queue) > 0 {
		if pops++; pops > 100000+100*len(sub) {
			return nil, fmt.Errorf("%w: epsilon closure does not converge (an input-epsilon cycle of non-positive weight?)", ErrTooLarge)
		}
		i := queue[0]
		queue = queue[1:]
		queued[i] = false
		r := resid[i]
		resid[i] = fst.WeightZero
		e := sub[i]
		for _, a := range d.f.States[e.state].Arcs {
			if a.ILabel != 0 {
				continue
			}
			nw := r + a.Weight
			ns := d.strs.appendLabel(e.str, a.OLabel)
			j, ok := pos[a.NextState]
			if !ok {
				pos[a.NextState] = len(sub)
				sub = append(sub, element{a.NextState, ns, nw})
				resid = append(resid, nw)
				queued = append(queued, true)
				queue = append(queue, len(sub)-1)
				continue
			}
			if sub[j].str != ns {
				return nil, fmt.Errorf("%w: state %d is reached by input-epsilon paths with outputs %v and %v", ErrNonFunctional, a.NextState, d.strs.labels(sub[j].str), d.strs.labels(ns))
			}
			sum := d.opt.Semiring.Plus(sub[j].w, nw)
			if approxEqual(sum, sub[j].w, d.opt.Delta) {
				continue
			}
			sub[j].w = sum
			resid[j] = d.opt.Semiring.Plus(resid[j], nw)
			if !queued[j] {
				queued[j] = true
				queue = append(queue, j)
			}
		}
	}
	slices.SortFunc(sub, func(a, b element) int { return int(a.state) - int(b.state) })
	return sub, nil
}

// transition is one arc of one subset element, before grouping by label.
type transition struct {
	ilabel fst.Label
	elem   element
}

// expand builds the final weight and outgoing arcs of output state s.
func (d *determinizer) expand(s fst.StateID) error {
	sub := d.subsets[s]
	sr := d.opt.Semiring
	// Final weight.
	fw, fstr, haveFinal := fst.WeightZero, int32(0), false
	var trans []transition
	for _, e := range sub {
		st := &d.f.States[e.state]
		if st.Final != fst.WeightZero {
			if haveFinal && fstr != e.str {
				return fmt.Errorf("%w: final states %v reached with outputs %v and %v", ErrNonFunctional, e.state, d.strs.labels(fstr), d.strs.labels(e.str))
			}
			fw, fstr, haveFinal = sr.Plus(fw, e.w+st.Final), e.str, true
		}
		for _, a := range st.Arcs {
			if a.ILabel == 0 {
				continue
			}
			trans = append(trans, transition{a.ILabel, element{a.NextState, d.strs.appendLabel(e.str, a.OLabel), e.w + a.Weight}})
		}
	}
	if haveFinal {
		if fstr == 0 {
			d.out.SetFinal(s, fw)
		} else {
			d.emitChain(s, 0, d.strs.labels(fstr), fw, fst.NoState)
		}
	}
	slices.SortStableFunc(trans, func(a, b transition) int { return int(a.ilabel) - int(b.ilabel) })
	for i := 0; i < len(trans); {
		j := i
		for j < len(trans) && trans[j].ilabel == trans[i].ilabel {
			j++
		}
		if err := d.addTransition(s, trans[i].ilabel, trans[i:j]); err != nil {
			return err
		}
		i = j
	}
	return nil
}

// addTransition makes the arc of state s on ilabel from the elements its
// input arcs reach.
func (d *determinizer) addTransition(s fst.StateID, ilabel fst.Label, group []transition) error {
	sr := d.opt.Semiring
	slices.SortStableFunc(group, func(a, b transition) int { return int(a.elem.state) - int(b.elem.state) })
	sub := make([]element, 0, len(group))
	for _, t := range group {
		if n := len(sub); n > 0 && sub[n-1].state == t.elem.state {
			if sub[n-1].str != t.elem.str {
				return fmt.Errorf("%w: state %d is reached on input %d with outputs %v and %v", ErrNonFunctional, t.elem.state, ilabel, d.strs.labels(sub[n-1].str), d.strs.labels(t.elem.str))
			}
			sub[n-1].w = sr.Plus(sub[n-1].w, t.elem.w)
			continue
		}
		sub = append(sub, t.elem)
	}
	sub, err := d.closure(sub)
	if err != nil {
		return err
	}
	// Normalise: emit the common prefix and the total weight.
	total := fst.WeightZero
	prefix := sub[0].str
	for _, e := range sub {
		total = sr.Plus(total, e.w)
		prefix = d.strs.commonPrefix(prefix, e.str)
	}
	if total == fst.WeightZero {
		return nil // only impossible paths
	}
	n := d.strs.depth[prefix]
	kept := sub[:0]
	for _, e := range sub {
		if e.w == fst.WeightZero {
			continue
		}
		e.str = d.strs.suffix(e.str, n)
		e.w -= total
		kept = append(kept, e)
	}
	dest := d.stateOf(kept)
	d.emitChain(s, ilabel, d.strs.labels(prefix), total, dest)
	return nil
}

// emitChain adds a path from s to dest reading ilabel and writing labels
// (one per arc, further arcs with input epsilon), weight w on the first
// arc. dest NoState makes a new final state at the end.
func (d *determinizer) emitChain(s fst.StateID, ilabel fst.Label, labels []fst.Label, w float32, dest fst.StateID) {
	if dest == fst.NoState {
		dest = d.out.AddState()
		d.out.SetFinal(dest, fst.WeightOne)
	}
	if len(labels) <= 1 {
		o := fst.Label(0)
		if len(labels) == 1 {
			o = labels[0]
		}
		d.out.AddArc(s, fst.Arc{ILabel: ilabel, OLabel: o, Weight: w, NextState: dest})
		return
	}
	cur := s
	for k, l := range labels {
		next := dest
		if k+1 < len(labels) {
			next = d.out.AddState()
		}
		arc := fst.Arc{ILabel: 0, OLabel: l, Weight: fst.WeightOne, NextState: next}
		if k == 0 {
			arc.ILabel, arc.Weight = ilabel, w
		}
		d.out.AddArc(cur, arc)
		cur = next
	}
}
