package mkgraph

import (
	"fmt"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// HTransducer is Ha of mkgraph.sh: the HMMs of all phones without their
// self-loops, as one transducer from transition-ids to phones, plus the
// disambiguation symbols mapped into transition-id space.
type HTransducer struct {
	Fst *fst.VectorFst
	// DisambigTids are the input labels standing for the phone
	// disambiguation symbols (Kaldi's disambig_tid.int): tid-space
	// numbering continues after the last transition-id.
	DisambigTids []int32
}

// MakeH builds Ha for a context-independent tree (context width 1), as
// Kaldi's make-h-transducer: one loop state (start and final) from which
// each phone's HMM leaves and returns. The first arc of a phone carries
// the phone on its output; arcs are weighted transitionScale ·
// -log P(tid | not self-loop). Each phone disambiguation symbol gets a
// self-loop on the loop state, reading its transition-id-space symbol
// (NumTransitionIDs+1, +2, …) and writing the phone-side symbol.
func MakeH(tm *hmm.TransitionModel, tree *tree.ContextDependency, phoneDisambig []int32, transitionScale float64) (*HTransducer, error) {
	if tree.ContextWidth != 1 || tree.CentralPosition != 0 {
		return nil, fmt.Errorf("%w: tree with context width %d, central position %d: only context-independent trees (N=1, P=0) are supported", fst.ErrUnsupported, tree.ContextWidth, tree.CentralPosition)
	}
	h := fst.NewVectorFst()
	root := h.AddState()
	h.Start = root
	h.SetFinal(root, fst.WeightOne)
	for _, phone := range tm.Phones() {
		if err := addHmm(h, root, tm, tree, []int32{phone}, phone, transitionScale); err != nil {
			return nil, err
		}
	}
	out := &HTransducer{Fst: h}
	next := int32(tm.NumTransitionIDs()) + 1
	for _, d := range phoneDisambig {
		for _, p := range tm.Phones() {
			if p == d {
				return nil, fmt.Errorf("%w: disambiguation symbol %d is also a phone of the model", hmm.ErrModel, d)
			}
		}
		h.AddArc(root, fst.Arc{ILabel: next, OLabel: d, Weight: fst.WeightOne, NextState: root})
		out.DisambigTids = append(out.DisambigTids, next)
		next++
	}
	return out, nil
}

// MakeHContext builds Ha for a tree with phone context over the input
// labels of CLG (ComposeContext): each window label gets the HMM of its
// central phone with the tree's pdfs for that window, writing the label on
// its first arc; each disambiguation label (and Delay, Kaldi's #-1) gets a
// self-loop on the loop state reading a transition-id-space symbol, which
// is removed after determinization.
func MakeHContext(tm *hmm.TransitionModel, tree *tree.ContextDependency, labels *ContextLabels, transitionScale float64) (*HTransducer, error) {
	h := fst.NewVectorFst()
	root := h.AddState()
	h.Start = root
	h.SetFinal(root, fst.WeightOne)
	out := &HTransducer{Fst: h}
	next := int32(tm.NumTransitionIDs()) + 1
	for i, w := range labels.Windows {
		switch {
		case i == 0:
			continue
		case fst.Label(i) == labels.Delay || (len(w) == 1 && w[0] < 0):
			h.AddArc(root, fst.Arc{ILabel: next, OLabel: fst.Label(i), Weight: fst.WeightOne, NextState: root})
			out.DisambigTids = append(out.DisambigTids, next)
			next++
		case int32(len(w)) != tree.ContextWidth:
			return nil, fmt.Errorf("%w: context label %d has window %v, the tree's width is %d", hmm.ErrModel, i, w, tree.ContextWidth)
		default:
			if err := addHmm(h, root, tm, tree, w, fst.Label(i), transitionScale); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// addHmm adds the HMM of the central phone of window (no self-loops),
// leaving from and returning to root, writing out on its first arc. HMM
// state 0 is root itself unless a transition re-enters it, in which case
// it gets its own state too (root keeps copies of its arcs).
func addHmm(h *fst.VectorFst, root fst.StateID, tm *hmm.TransitionModel, tree *tree.ContextDependency, window []int32, out fst.Label, transitionScale float64) error {
	phone := window[tree.CentralPosition]
	entry, err := tm.Topo.TopologyForPhone(phone)
	if err != nil {
		return err
	}
	n := len(entry)
	type harc struct {
		dest int32
		tid  int32
		w    float32
	}
	arcs := make([][]harc, n)
	state0Entered := false
	for s := 0; s+1 < n; s++ {
		st := entry[s]
		if st.ForwardPdfClass == hmm.NoPdf {
			return fmt.Errorf("%w: phone %d: non-emitting HMM state %d inside the topology", fst.ErrUnsupported, phone, s)
		}
		fwd, err := tree.Compute(window, st.ForwardPdfClass)
		if err != nil {
			return fmt.Errorf("window %v hmm-state %d: %w", window, s, err)
		}
		self, err := tree.Compute(window, st.SelfLoopPdfClass)
		if err != nil {
			return fmt.Errorf("window %v hmm-state %d: %w", window, s, err)
		}
		ts := tm.TransitionStateOf(hmm.TransitionTuple{Phone: phone, HmmState: int32(s), ForwardPdf: fwd, SelfLoopPdf: self})
		if ts == 0 {
			return fmt.Errorf("%w: transition model has no state for phone %d hmm-state %d pdfs %d/%d (tree and model disagree)", hmm.ErrModel, phone, s, fwd, self)
		}
		for k, tr := range st.Transitions {
			if tr.Dest == int32(s) {
				continue // self-loops are added after determinization
			}
			tid := tm.PairToTransitionID(ts, int32(k))
			w := float32(0)
			if transitionScale != 0 {
				w = float32(-float64(tm.TransitionLogProbIgnoringSelfLoops(tid)) * transitionScale)
			}
			arcs[s] = append(arcs[s], harc{tr.Dest, tid, w})
			if tr.Dest == 0 {
				state0Entered = true
			}
		}
	}
	ids := make([]fst.StateID, n)
	for k := 1; k < n-1; k++ {
		ids[k] = h.AddState()
	}
	ids[n-1] = root
	ids[0] = fst.NoState
	if state0Entered {
		ids[0] = h.AddState()
	}
	for k := 0; k < n-1; k++ {
		for _, a := range arcs[k] {
			arc := fst.Arc{ILabel: a.tid, Weight: a.w, NextState: ids[a.dest]}
			if k == 0 {
				first := arc
				first.OLabel = out
				h.AddArc(root, first)
				if ids[0] != fst.NoState {
					h.AddArc(ids[0], arc)
				}
				continue
			}
			h.AddArc(ids[k], arc)
		}
	}
	return nil
}
