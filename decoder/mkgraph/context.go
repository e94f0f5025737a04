package mkgraph

import (
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/fst"
)

// ContextLabels is the input alphabet of CLG for a tree with context
// (Kaldi's ilabel_info): Windows[i] is what CLG's input label i stands for.
// Label 0 is epsilon (nil). A phone window has ContextWidth phones (0 for
// "no phone" at the edges of the utterance); a disambiguation symbol d of
// LG is the one-element window {-d}; Delay (Kaldi's #-1, window {0}) is
// read while the first phones of an utterance fill the right context.
type ContextLabels struct {
	Windows [][]int32
	Delay   fst.Label
	index   map[string]fst.Label
}

func newContextLabels() *ContextLabels {
	c := &ContextLabels{Windows: [][]int32{nil}, index: map[string]fst.Label{}}
	c.Delay = c.label([]int32{0})
	return c
}

func (c *ContextLabels) label(window []int32) fst.Label {
	k := fmt.Sprint(window)
	if l, ok := c.index[k]; ok {
		return l
	}
	l := fst.Label(len(c.Windows))
	c.Windows = append(c.Windows, slices.Clone(window))
	c.index[k] = l
	return l
}

// ComposeContext returns C ∘ LG for phone windows of width n with the
// central phone at position p, as Kaldi's fstcomposecontext, built
// directly on LG: a state is an LG state and the last phones read (at most
// n-1, starting from p "no phone" zeros). Reading a phone that completes a
// window reads that window's label on the input; while the window is not
// yet full (the first n-1-p phones of an utterance) the input reads Delay.
// Disambiguation symbols of LG (phoneDisambig) pass through as their own
// one-element windows, leaving the history alone; LG's input epsilons stay
// epsilons. At a final state of LG the windows still open are closed with
// "no phone" right context on a chain of arcs (Kaldi appends the
// subsequential symbol to LG for this) before the final weight.
func ComposeContext(lg *fst.VectorFst, n, p int, phoneDisambig []int32) (*fst.VectorFst, *ContextLabels, error) {
	if n < 1 || p < 0 || p >= n {
		return nil, nil, fmt.Errorf("%w: context width %d, central position %d", fst.ErrUnsupported, n, p)
	}
	labels := newContextLabels()
	isDisambig := map[int32]bool{}
	for _, d := range phoneDisambig {
		isDisambig[d] = true
	}
	out := fst.NewVectorFst()
	if lg.Start == fst.NoState {
		return out, labels, nil
	}
	type key struct {
		s    fst.StateID
		hist string
	}
	ids := map[key]fst.StateID{}
	type item struct {
		s    fst.StateID
		hist []int32
	}
	var queue []item
	get := func(s fst.StateID, hist []int32) fst.StateID {
		k := key{s, fmt.Sprint(hist)}
		if id, ok := ids[k]; ok {
			return id
		}
		id := out.AddState()
		ids[k] = id
		queue = append(queue, item{s, slices.Clone(hist)})
		return id
	}
	out.Start = get(lg.Start, make([]int32, p))
	for head := 0; head < len(queue); head++ {
		it := queue[head]
		src := ids[key{it.s, fmt.Sprint(it.hist)}]
		st := &lg.States[it.s]
		if st.Final != fst.WeightZero {
			closeWindows(out, labels, src, it.hist, n, p, st.Final)
		}
		for _, a := range st.Arcs {
			switch {
			case a.ILabel == 0:
				out.AddArc(src, fst.Arc{ILabel: 0, OLabel: a.OLabel, Weight: a.Weight, NextState: get(a.NextState, it.hist)})
			case isDisambig[a.ILabel]:
				l := labels.label([]int32{-a.ILabel})
				out.AddArc(src, fst.Arc{ILabel: l, OLabel: a.OLabel, Weight: a.Weight, NextState: get(a.NextState, it.hist)})
			default:
				seq := append(slices.Clone(it.hist), a.ILabel)
				in := labels.Delay
				if len(seq) == n {
					in = labels.label(seq)
					seq = seq[1:]
				}
				out.AddArc(src, fst.Arc{ILabel: in, OLabel: a.OLabel, Weight: a.Weight, NextState: get(a.NextState, seq)})
			}
		}
	}
	return out, labels, nil
}

// closeWindows adds, from src, the chain that reads the windows of the
// phones still waiting for right context (the history's phones from the
// central position on), padding with 0, and ends in a new final state
// with weight final.
func closeWindows(out *fst.VectorFst, labels *ContextLabels, src fst.StateID, hist []int32, n, p int, final float32) {
	seq := slices.Clone(hist)
	pending := len(seq) - p
	if pending <= 0 {
		out.SetFinal(src, final)
		return
	}
	cur, w := src, final
	for k := 0; k < pending; k++ {
		for len(seq) < n {
			seq = append(seq, 0)
		}
		next := out.AddState()
		out.AddArc(cur, fst.Arc{ILabel: labels.label(seq), Weight: w, NextState: next})
		w, cur, seq = fst.WeightOne, next, seq[1:]
	}
	out.SetFinal(cur, fst.WeightOne)
}
