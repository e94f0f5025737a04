package graph

import (
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder"
	"github.com/strode-asr/strode/kaldiio"
)

// MonophoneTree is the tree of Kaldi's gmm-init-mono
// (MonophoneContextDependencyShared): context width 1, a table on the
// phone whose entries are tables on the pdf-class; the phones of one set
// (a line of phones/sets.int) share their pdfs, numbered set by set in
// the order given.
func MonophoneTree(topo *decoder.HmmTopology, sets [][]int32) (*decoder.ContextDependency, error) {
	maxPhone := int32(0)
	seen := map[int32]bool{}
	for _, set := range sets {
		for _, p := range set {
			if seen[p] {
				return nil, fmt.Errorf("%w: phone %d is in two sets", decoder.ErrModel, p)
			}
			seen[p] = true
			maxPhone = max(maxPhone, p)
		}
	}
	for _, p := range topo.Phones {
		if !seen[p] {
			return nil, fmt.Errorf("%w: phone %d of the topology is in no set", decoder.ErrModel, p)
		}
	}
	table := make([]decoder.EventMap, maxPhone+1)
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
				return nil, fmt.Errorf("%w: phones %d and %d share a set but have %d and %d pdf-classes", decoder.ErrModel, set[0], p, n, m)
			}
		}
		leaves := make([]decoder.EventMap, n)
		for c := range leaves {
			leaves[c] = &decoder.ConstantEventMap{Answer: next}
			next++
		}
		sub := &decoder.TableEventMap{Key: decoder.PdfClassKey, Table: leaves}
		for _, p := range set {
			table[p] = sub
		}
	}
	return &decoder.ContextDependency{ContextWidth: 1, CentralPosition: 0, ToPdf: &decoder.TableEventMap{Key: 0, Table: table}}, nil
}

// MonophoneTransitionModel is the transition model of gmm-init-mono: one
// transition-state per (phone, HMM state) with the tree's pdfs, and the
// topology's probabilities.
func MonophoneTransitionModel(topo decoder.HmmTopology, tree *decoder.ContextDependency) (*decoder.TransitionModel, error) {
	return decoder.NewTransitionModel(topo, func(phone, hmmState int32) (int32, int32, error) {
		e, err := topo.TopologyForPhone(phone)
		if err != nil {
			return 0, 0, err
		}
		st := e[hmmState]
		fwd, err := tree.Compute([]int32{phone}, st.ForwardPdfClass)
		if err != nil {
			return 0, 0, err
		}
		self, err := tree.Compute([]int32{phone}, st.SelfLoopPdfClass)
		return fwd, self, err
	})
}

// PhoneSets returns the sets of the lang directory (phones/sets.int):
// one per line of silence_phones.txt and nonsilence_phones.txt.
func (l *Lang) PhoneSets() [][]int32 {
	var sets [][]int32
	for _, line := range slices.Concat(l.Dict.SilencePhones, l.Dict.NonsilencePhones) {
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
func WriteMonophoneModel(treePath, mdlPath string, tree *decoder.ContextDependency, tm *decoder.TransitionModel, binary bool) error {
	if err := kaldiio.WriteObject(treePath, decoder.ContextDependencyCodec, binary, tree); err != nil {
		return fmt.Errorf("writing tree %s: %w", treePath, err)
	}
	if err := kaldiio.WriteObject(mdlPath, decoder.TransitionModelCodec, binary, tm); err != nil {
		return fmt.Errorf("writing model %s: %w", mdlPath, err)
	}
	return nil
}
