package hmm

import (
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/tree"
)

// NewTransitionModelFromTree is Kaldi's TransitionModel(ctx_dep, topo): one
// transition-state per (phone, HMM state, forward pdf, self-loop pdf) the
// tree can produce, with the topology's transition probabilities. For an
// ordinary HMM topology the pdfs of (phone, pdf-class) are every leaf the
// tree reaches with the other context positions free (ContextDependency::
// GetPdfInfo); when forward and self-loop pdf-classes differ, the pairs
// are enumerated context by context as Kaldi's EnumeratePairs does.
func NewTransitionModelFromTree(ctx *tree.ContextDependency, topo Topology) (*TransitionModel, error) {
	if ctx.ToPdf == nil {
		return nil, fmt.Errorf("empty tree")
	}
	p := ctx.CentralPosition
	hmm := topo.IsHmm()
	pdfsOf := func(phone, pdfClass int32, window []int32) []int32 {
		ev := tree.EventType{{Key: tree.PdfClassKey, Value: pdfClass}}
		for i, ph := range window {
			if ph >= 0 {
				ev = append(ev, tree.EventPair{Key: int32(i), Value: ph})
			}
		}
		out := tree.MultiMap(ctx.ToPdf, ev, nil)
		slices.Sort(out)
		return slices.Compact(out)
	}
	var missing error
	tm, err := NewTransitionModelMulti(topo, func(phone, state int32) ([][2]int32, error) {
		entry, _ := topo.TopologyForPhone(phone)
		fc, sc := entry[state].ForwardPdfClass, entry[state].SelfLoopPdfClass
		window := make([]int32, ctx.ContextWidth)
		for i := range window {
			window[i] = -1
		}
		window[p] = phone
		var pairs [][2]int32
		if hmm {
			for _, pdf := range pdfsOf(phone, fc, window) {
				pairs = append(pairs, [2]int32{pdf, pdf})
			}
		} else {
			set := map[[2]int32]bool{}
			enumeratePairs(ctx, topo.Phones, sc, fc, window, pdfsOf, set)
			for pr := range set {
				pairs = append(pairs, pr)
			}
		}
		if len(pairs) == 0 && missing == nil {
			missing = fmt.Errorf("the tree gives no pdf for phone %d, HMM state %d (pdf-class %d): tree and topology do not match", phone, state, fc)
		}
		return pairs, nil
	})
	if err != nil {
		return nil, err
	}
	if missing != nil {
		return nil, missing
	}
	return tm, nil
}

// enumeratePairs is ContextDependency::EnumeratePairs: the (forward,
// self-loop) pdf pairs of a phone window in which -1 marks free positions,
// filling the free position nearest the centre with each phone (and 0)
// while both pdfs are still ambiguous.
func enumeratePairs(ctx *tree.ContextDependency, phones []int32, selfClass, fwdClass int32, window []int32, pdfsOf func(phone, pdfClass int32, window []int32) []int32, pairs map[[2]int32]bool) {
	p := int(ctx.CentralPosition)
	fwd := pdfsOf(window[p], fwdClass, window)
	self := pdfsOf(window[p], selfClass, window)
	if len(fwd) == 1 || len(self) == 1 {
		for _, f := range fwd {
			for _, s := range self {
				pairs[[2]int32{f, s}] = true
			}
		}
		return
	}
	n := int(ctx.ContextWidth)
	position, minDist := 0, n-1
	for i := 0; i < n; i++ {
		d := p - i
		if d < 0 {
			d = -d
		}
		if window[i] == -1 && d < minDist {
			position, minDist = i, d
		}
	}
	next := slices.Clone(window)
	next[position] = 0
	enumeratePairs(ctx, phones, selfClass, fwdClass, next, pdfsOf, pairs)
	for _, ph := range phones {
		next[position] = ph
		enumeratePairs(ctx, phones, selfClass, fwdClass, next, pdfsOf, pairs)
	}
}

// PhoneToNumPdfClasses is Kaldi's HmmTopology::GetPhoneToNumPdfClasses:
// indexed by phone up to the largest, -1 for phones without a topology
// (what build-tree needs of the topology).
func PhoneToNumPdfClasses(topo *Topology) []int32 {
	if len(topo.Phones) == 0 {
		return nil
	}
	out := make([]int32, topo.Phones[len(topo.Phones)-1]+1)
	for i := range out {
		out[i] = -1
	}
	for _, ph := range topo.Phones {
		n, _ := topo.NumPdfClasses(ph)
		out[ph] = int32(n)
	}
	return out
}
