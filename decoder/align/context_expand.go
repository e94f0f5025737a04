package align

import (
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/fst"
)

// maxContextWidth bounds the tree's context width N (quinphones at most).
const maxContextWidth = 5

// phoneWindows numbers the phone windows (context-dependent phones) that
// label the arcs of a context-expanded FST, as Kaldi's ilabel_info: id 0 is
// epsilon, every other id a window of N phones, 0 marking "no phone"
// before the start or after the end of the utterance.
type phoneWindows struct {
	n    int
	ids  map[[maxContextWidth]int32]fst.Label
	info [][]int32
}

func newPhoneWindows(n int) *phoneWindows {
	return &phoneWindows{n: n, ids: map[[maxContextWidth]int32]fst.Label{}, info: [][]int32{nil}}
}

func (w *phoneWindows) id(win [maxContextWidth]int32) fst.Label {
	if id, ok := w.ids[win]; ok {
		return id
	}
	id := fst.Label(len(w.info))
	w.ids[win] = id
	w.info = append(w.info, slices.Clone(win[:w.n]))
	return id
}

// expandContext composes Kaldi's context FST C with a phone-level FST lw
// (input phones, output words): the result reads phone windows of width N
// with the central phone at position P, each window emitted once its right
// context has been read (so N-1-P phones late), windows at the utterance
// edges padded with 0, and the last windows flushed at the final states.
// Disambiguation symbols become epsilons; epsilons keep the context.
func expandContext(lw *fst.VectorFst, n, p int, disambig []int32, wins *phoneWindows) (*fst.VectorFst, error) {
	if n < 1 || n > maxContextWidth || p < 0 || p >= n {
		return nil, fmt.Errorf("%w: context width %d, central position %d", fst.ErrUnsupported, n, p)
	}
	type key struct {
		s fst.StateID
		h [maxContextWidth]int32 // the last N-1 phones read, oldest first
	}
	out := fst.NewVectorFst()
	ids := map[key]fst.StateID{}
	var queue []key
	get := func(k key) fst.StateID {
		if id, ok := ids[k]; ok {
			return id
		}
		id := out.AddState()
		ids[k] = id
		queue = append(queue, k)
		return id
	}
	out.Start = get(key{s: lw.Start})
	delay := n - 1 - p
	for len(queue) > 0 {
		k := queue[0]
		queue = queue[1:]
		src := ids[k]
		if fw := lw.States[k.s].Final; fw != fst.WeightZero {
			// Flush the windows still waiting for right context: the
			// subsequential symbol, padding the window with 0.
			cur, h := src, k.h
			for i := 0; i < delay; i++ {
				var win [maxContextWidth]int32
				copy(win[:], h[:n-1])
				win[n-1] = 0
				next := out.AddState()
				label := fst.Label(0)
				if win[p] != 0 {
					label = wins.id(win)
				}
				out.AddArc(cur, fst.Arc{ILabel: label, Weight: fst.WeightOne, NextState: next})
				copy(h[:], h[1:n-1])
				h[n-2] = 0
				cur = next
			}
			out.SetFinal(cur, fw)
		}
		for _, a := range lw.States[k.s].Arcs {
			if a.ILabel == 0 {
				out.AddArc(src, fst.Arc{OLabel: a.OLabel, Weight: a.Weight, NextState: get(key{a.NextState, k.h})})
				continue
			}
			if _, ok := slices.BinarySearch(disambig, a.ILabel); ok {
				out.AddArc(src, fst.Arc{OLabel: a.OLabel, Weight: a.Weight, NextState: get(key{a.NextState, k.h})})
				continue
			}
			var win [maxContextWidth]int32
			copy(win[:], k.h[:n-1])
			win[n-1] = a.ILabel
			label := fst.Label(0)
			if win[p] != 0 {
				label = wins.id(win)
			}
			var h [maxContextWidth]int32
			if n > 1 {
				copy(h[:], win[1:n])
			}
			out.AddArc(src, fst.Arc{ILabel: label, OLabel: a.OLabel, Weight: a.Weight, NextState: get(key{a.NextState, h})})
		}
	}
	fst.Connect(out)
	return out, nil
}
