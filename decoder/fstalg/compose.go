package fstalg

import (
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/fst"
)

// ComposeOptions control Compose.
type ComposeOptions struct {
	// Connect trims the result to states on a successful path (OpenFst's
	// connect=true, the default of fstcompose and fsttablecompose).
	Connect bool
	// MaxStates bounds the result (0: no bound); composition that would
	// exceed it fails with ErrTooLarge instead of exhausting memory.
	MaxStates int
}

// DefaultComposeOptions are fstcompose's defaults.
func DefaultComposeOptions() ComposeOptions { return ComposeOptions{Connect: true} }

// Compose returns a ∘ b: the transducer mapping x to z with weight
// a(x→y)+b(y→z). Epsilons are handled by OpenFst's default sequence
// filter: on an output epsilon of a, a moves alone; on an input epsilon of
// b, b moves alone; after b has moved alone, a may not move alone again
// until a label has been matched, so every path is built exactly once
// (no redundant epsilon paths, whose weights would otherwise be counted
// twice in the log semiring). Neither input needs to be sorted: the arcs
// are matched through sorted copies, iterating the side with fewer arcs
// as Kaldi's TableCompose does.
func Compose(a, b *fst.VectorFst, opt ComposeOptions) (*fst.VectorFst, error) {
	out := fst.NewVectorFst()
	if a.Start == fst.NoState || b.Start == fst.NoState {
		return out, nil
	}
	if err := a.Validate(); err != nil {
		return nil, fmt.Errorf("compose: left FST: %w", err)
	}
	if err := b.Validate(); err != nil {
		return nil, fmt.Errorf("compose: right FST: %w", err)
	}
	// aOut[s]: arcs of a with a non-epsilon output, sorted by olabel;
	// aEps[s]: arcs of a with output epsilon. Likewise for b on its input.
	aOut, aEps := splitSorted(a, func(x fst.Arc) fst.Label { return x.OLabel })
	bIn, bEps := splitSorted(b, func(x fst.Arc) fst.Label { return x.ILabel })

	type triple struct {
		s1, s2 fst.StateID
		fs     int8
	}
	ids := map[triple]fst.StateID{}
	var queue []triple
	var tooLarge bool
	get := func(t triple) fst.StateID {
		if id, ok := ids[t]; ok {
			return id
		}
		if opt.MaxStates > 0 && out.NumStates() >= opt.MaxStates {
			tooLarge = true
		}
		id := out.AddState()
		ids[t] = id
		queue = append(queue, t)
		return id
	}
	out.Start = get(triple{a.Start, b.Start, 0})
	for head := 0; head < len(queue); head++ {
		if tooLarge {
			return nil, fmt.Errorf("%w: composition exceeds %d states", ErrTooLarge, opt.MaxStates)
		}
		t := queue[head]
		src := ids[t]
		if fa, fb := a.States[t.s1].Final, b.States[t.s2].Final; fa != fst.WeightZero && fb != fst.WeightZero {
			out.SetFinal(src, fa+fb)
		}
		// a moves alone on an output epsilon (only from filter state 0).
		if t.fs == 0 {
			for _, x := range aEps[t.s1] {
				out.AddArc(src, fst.Arc{ILabel: x.ILabel, OLabel: 0, Weight: x.Weight, NextState: get(triple{x.NextState, t.s2, 0})})
			}
		}
		// b moves alone on an input epsilon, unless a can only move on
		// epsilons (and is not final), which would make a dead end.
		if len(bEps[t.s2]) > 0 {
			allEps := len(aOut[t.s1]) == 0 && a.States[t.s1].Final == fst.WeightZero
			if !allEps {
				fs := int8(1)
				if len(aEps[t.s1]) == 0 {
					fs = 0
				}
				for _, y := range bEps[t.s2] {
					out.AddArc(src, fst.Arc{ILabel: 0, OLabel: y.OLabel, Weight: y.Weight, NextState: get(triple{t.s1, y.NextState, fs})})
				}
			}
		}
		// Matching labels: iterate the side with fewer arcs, search the other.
		xs, ys := aOut[t.s1], bIn[t.s2]
		if len(xs) <= len(ys) {
			for _, x := range xs {
				i, _ := slices.BinarySearchFunc(ys, x.OLabel, func(y fst.Arc, l fst.Label) int { return int(y.ILabel) - int(l) })
				for ; i < len(ys) && ys[i].ILabel == x.OLabel; i++ {
					y := ys[i]
					out.AddArc(src, fst.Arc{ILabel: x.ILabel, OLabel: y.OLabel, Weight: x.Weight + y.Weight, NextState: get(triple{x.NextState, y.NextState, 0})})
				}
			}
		} else {
			for _, y := range ys {
				i, _ := slices.BinarySearchFunc(xs, y.ILabel, func(x fst.Arc, l fst.Label) int { return int(x.OLabel) - int(l) })
				for ; i < len(xs) && xs[i].OLabel == y.ILabel; i++ {
					x := xs[i]
					out.AddArc(src, fst.Arc{ILabel: x.ILabel, OLabel: y.OLabel, Weight: x.Weight + y.Weight, NextState: get(triple{x.NextState, y.NextState, 0})})
				}
			}
		}
	}
	if tooLarge {
		return nil, fmt.Errorf("%w: composition exceeds %d states", ErrTooLarge, opt.MaxStates)
	}
	if opt.Connect {
		fst.Connect(out)
	}
	return out, nil
}

// splitSorted splits each state's arcs into those whose key label is
// non-epsilon (stably sorted by it) and those whose key is epsilon.
func splitSorted(f *fst.VectorFst, key func(fst.Arc) fst.Label) (labelled, eps [][]fst.Arc) {
	labelled = make([][]fst.Arc, len(f.States))
	eps = make([][]fst.Arc, len(f.States))
	for s := range f.States {
		for _, x := range f.States[s].Arcs {
			if key(x) == 0 {
				eps[s] = append(eps[s], x)
			} else {
				labelled[s] = append(labelled[s], x)
			}
		}
		slices.SortStableFunc(labelled[s], func(x, y fst.Arc) int { return int(key(x)) - int(key(y)) })
	}
	return labelled, eps
}
