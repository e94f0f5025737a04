package align

import (
	"fmt"
	"reflect"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// ConvertAlignmentOptions are convert-ali's options that strode supports.
type ConvertAlignmentOptions struct {
	Reorder  bool    // --reorder: write self-loops after the forward transition (true)
	PhoneMap []int32 // --phone-map: old phone -> new phone (-1 unmapped); nil for none
}

// AlignmentConverter is convert-ali: Kaldi's ConvertAlignment (hmm-utils) for the common case of
// equal topologies and no frame subsampling: each frame keeps its phone,
// HMM state and transition index, and takes the pdf the new tree gives its
// phone window and pdf-class.
type AlignmentConverter struct {
	oldTM, newTM *hmm.TransitionModel
	tree         *tree.ContextDependency
	opts         ConvertAlignmentOptions
}

// NewAlignmentConverter checks that the models can be converted between:
// the topology of every phone must be the same in both (Kaldi then falls
// back to re-dividing each phone's frames at random, which strode does
// not do).
func NewAlignmentConverter(oldTM, newTM *hmm.TransitionModel, tree *tree.ContextDependency, opts ConvertAlignmentOptions) (*AlignmentConverter, error) {
	for _, ph := range oldTM.Topo.Phones {
		newPh := ph
		if opts.PhoneMap != nil {
			if int(ph) >= len(opts.PhoneMap) || opts.PhoneMap[ph] < 0 {
				continue
			}
			newPh = opts.PhoneMap[ph]
		}
		a, _ := oldTM.Topo.TopologyForPhone(ph)
		b, err := newTM.Topo.TopologyForPhone(newPh)
		if err != nil {
			return nil, fmt.Errorf("convert-ali: phone %d of the old model has no topology in the new one", newPh)
		}
		if !reflect.DeepEqual(a, b) {
			return nil, fmt.Errorf("convert-ali: phone %d has a different HMM topology in the new model; converting between topologies is not supported", ph)
		}
	}
	return &AlignmentConverter{oldTM: oldTM, newTM: newTM, tree: tree, opts: opts}, nil
}

// Convert converts one alignment. An alignment that does not split into
// whole phones is ErrBadAlignment (Kaldi: "could not convert alignment").
func (c *AlignmentConverter) Convert(ali []int32) ([]int32, error) {
	split, ok, err := SplitToPhones(c.oldTM, ali)
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, ErrBadAlignment
	}
	oldReordered := reorderedAlignment(c.oldTM, ali)
	phones := make([]int32, len(split))
	for i, s := range split {
		phones[i] = c.oldTM.TransitionIDToPhone(s[0])
		if c.opts.PhoneMap != nil {
			if phones[i] < 0 || int(phones[i]) >= len(c.opts.PhoneMap) || c.opts.PhoneMap[phones[i]] < 0 {
				return nil, fmt.Errorf("could not map phone %d", phones[i])
			}
			phones[i] = c.opts.PhoneMap[phones[i]]
		}
	}
	n, p := int(c.tree.ContextWidth), int(c.tree.CentralPosition)
	out := make([]int32, 0, len(ali))
	window := make([]int32, n)
	for pos, old := range split {
		for j := range window {
			window[j] = 0
			if k := pos - p + j; k >= 0 && k < len(phones) {
				window[j] = phones[k]
			}
		}
		central := window[p]
		numClasses, err := c.newTM.Topo.NumPdfClasses(central)
		if err != nil {
			return nil, err
		}
		pdfs := make([]int32, numClasses)
		for pc := range pdfs {
			if pdfs[pc], err = c.tree.Compute(window, int32(pc)); err != nil {
				return nil, fmt.Errorf("tree did not succeed in converting phone window %v: %w", window, err)
			}
		}
		start := len(out)
		for _, tid := range old {
			ts := c.oldTM.TransitionIDToTransitionState(tid)
			tup := c.oldTM.Tuples[ts-1]
			entry, _ := c.oldTM.Topo.TopologyForPhone(tup.Phone)
			fc, sc := entry[tup.HmmState].ForwardPdfClass, entry[tup.HmmState].SelfLoopPdfClass
			if int(fc) >= len(pdfs) || int(sc) >= len(pdfs) {
				return nil, fmt.Errorf("pdf-class %d of phone %d is beyond the new topology's %d", max(fc, sc), tup.Phone, len(pdfs))
			}
			want := hmm.TransitionTuple{Phone: central, HmmState: tup.HmmState, ForwardPdf: pdfs[fc], SelfLoopPdf: pdfs[sc]}
			newTS := c.newTM.TransitionStateOf(want)
			if newTS == 0 {
				return nil, fmt.Errorf("the new model has no transition-state for phone %d, HMM state %d, pdfs %d/%d: model and tree do not match", want.Phone, want.HmmState, want.ForwardPdf, want.SelfLoopPdf)
			}
			out = append(out, c.newTM.PairToTransitionID(newTS, c.oldTM.TransitionIDToTransitionIndex(tid)))
		}
		if c.opts.Reorder != oldReordered {
			changeReordering(c.newTM, out[start:])
		}
	}
	return out, nil
}

// reorderedAlignment is Kaldi's IsReordered: whether self-loops come after the
// forward transition of their state.
func reorderedAlignment(tm *hmm.TransitionModel, ali []int32) bool {
	for i := 0; i+1 < len(ali); i++ {
		if tm.TransitionIDToTransitionState(ali[i]) != tm.TransitionIDToTransitionState(ali[i+1]) {
			if tm.IsSelfLoop(ali[i]) {
				return true
			}
			if tm.IsSelfLoop(ali[i+1]) {
				return false
			}
		}
	}
	if len(ali) == 0 || tm.IsSelfLoop(ali[0]) {
		return false
	}
	return tm.IsSelfLoop(ali[len(ali)-1])
}

// changeReordering is Kaldi's ChangeReorderingOfAlignment: within each run
// of one transition-state — a forward transition and the self-loops after
// it, or self-loops and the forward transition that ends them — the first
// and last transition-ids swap, moving the forward transition across the
// self-loops.
func changeReordering(tm *hmm.TransitionModel, ali []int32) {
	start := 0
	for start != len(ali) {
		ts := tm.TransitionIDToTransitionState(ali[start])
		startForward := !tm.IsSelfLoop(ali[start])
		end := start + 1
		for end != len(ali) && tm.TransitionIDToTransitionState(ali[end]) == ts {
			if !tm.IsSelfLoop(ali[end]) {
				if !startForward {
					end++
				}
				break
			}
			end++
		}
		ali[start], ali[end-1] = ali[end-1], ali[start]
		start = end
	}
}
