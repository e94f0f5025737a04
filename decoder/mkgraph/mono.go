package mkgraph

import (
	"cmp"
	"fmt"
	"math"
	"slices"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/kaldiio"
)

// MonophoneTree is the tree of Kaldi's gmm-init-mono
// (MonophoneContextDependencyShared): context width 1, a table on the
// phone whose entries are tables on the pdf-class; the phones of one set
// (a line of phones/sets.int) share their pdfs, numbered set by set in
// the order given.
func MonophoneTree(topo *hmm.Topology, sets [][]int32) (*tree.ContextDependency, error) {
	maxPhone := int32(0)
	seen := map[int32]bool{}
	for _, set := range sets {
		for _, p := range set {
			if seen[p] {
				return nil, fmt.Errorf("%w: phone %d is in two sets", hmm.ErrModel, p)
			}
			seen[p] = true
			maxPhone = max(maxPhone, p)
		}
	}
	for _, p := range topo.Phones {
		if !seen[p] {
			return nil, fmt.Errorf("%w: phone %d of the topology is in no set", hmm.ErrModel, p)
		}
	}
	table := make([]tree.EventMap, maxPhone+1)
	next := int32(0)
	for _, set := range sets {
		if len(set) == 0 {
			continue
		}
		n, err := topo.NumPdfClasses(set[0])
		if err != nil {
			return nil, err
		}
		for _, p := range set[1:] {
			if m, err := topo.NumPdfClasses(p); err != nil || m != n {
				return nil, fmt.Errorf("%w: phones %d and %d share a set but have %d and %d pdf-classes", hmm.ErrModel, set[0], p, n, m)
			}
		}
		leaves := make([]tree.EventMap, n)
		for c := range leaves {
			leaves[c] = &tree.ConstantEventMap{Answer: next}
			next++
		}
		sub := &tree.TableEventMap{Key: tree.PdfClassKey, Table: leaves}
		for _, p := range set {
			table[p] = sub
		}
	}
	return &tree.ContextDependency{ContextWidth: 1, CentralPosition: 0, ToPdf: &tree.TableEventMap{Key: 0, Table: table}}, nil
}

// MonophoneTransitionModel is the transition model of gmm-init-mono: one
// transition-state per (phone, HMM state) with the tree's pdfs, sorted as
// Kaldi sorts its tuples, and the topology's probabilities
// (InitializeProbs).
func MonophoneTransitionModel(topo hmm.Topology, tree *tree.ContextDependency) (*hmm.TransitionModel, error) {
	if err := topo.Check(); err != nil {
		return nil, err
	}
	tm := &hmm.TransitionModel{Topo: topo}
	for _, p := range topo.Phones {
		e, err := topo.TopologyForPhone(p)
		if err != nil {
			return nil, err
		}
		for s := 0; s+1 < len(e); s++ {
			st := e[s]
			if st.ForwardPdfClass == hmm.NoPdf {
				continue
			}
			fwd, err := tree.Compute([]int32{p}, st.ForwardPdfClass)
			if err != nil {
				return nil, err
			}
			self, err := tree.Compute([]int32{p}, st.SelfLoopPdfClass)
			if err != nil {
				return nil, err
			}
			tm.Tuples = append(tm.Tuples, hmm.TransitionTuple{Phone: p, HmmState: int32(s), ForwardPdf: fwd, SelfLoopPdf: self})
		}
	}
	slices.SortFunc(tm.Tuples, func(a, b hmm.TransitionTuple) int {
		return cmp.Or(cmp.Compare(a.Phone, b.Phone), cmp.Compare(a.HmmState, b.HmmState), cmp.Compare(a.ForwardPdf, b.ForwardPdf), cmp.Compare(a.SelfLoopPdf, b.SelfLoopPdf))
	})
	tm.LogProbs = []float32{0}
	for _, t := range tm.Tuples {
		e, _ := topo.TopologyForPhone(t.Phone)
		for _, tr := range e[t.HmmState].Transitions {
			tm.LogProbs = append(tm.LogProbs, float32(math.Log(float64(tr.Prob))))
		}
	}
	if err := tm.ComputeDerived(); err != nil {
		return nil, err
	}
	return tm, nil
}

// PhoneSets returns the sets of the lang directory (phones/sets.int): one
// per line of silence_phones.txt and nonsilence_phones.txt, all silence
// phones in one set with --share-silence-phones.
func (l *Lang) PhoneSets() [][]int32 {
	var sets [][]int32
	for _, line := range l.phoneSetLines() {
		var set []int32
		for _, p := range line {
			k, _ := l.Phones.Key(p)
			set = append(set, int32(k))
		}
		sets = append(sets, set)
	}
	return sets
}

// WriteMonophoneModel writes a tree and a model file holding the
// transition model (Kaldi binary format), which Kaldi's mapped decoders
// (decode-faster-mapped, latgen-faster-mapped) and our own read.
func WriteMonophoneModel(treePath, mdlPath string, ctxDep *tree.ContextDependency, tm *hmm.TransitionModel, binary bool) error {
	if err := kaldiio.WriteObject(treePath, tree.ContextDependencyCodec, binary, ctxDep); err != nil {
		return fmt.Errorf("writing tree %s: %w", treePath, err)
	}
	if err := kaldiio.WriteObject(mdlPath, hmm.TransitionModelCodec, binary, tm); err != nil {
		return fmt.Errorf("writing model %s: %w", mdlPath, err)
	}
	return nil
}
