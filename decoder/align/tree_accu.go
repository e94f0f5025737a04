package align

import (
	"errors"
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/kaldiio"
)

// AccumulateOptions are acc-tree-stats' options.
type AccumulateOptions struct {
	VarFloor        float32 // --var-floor (0.01)
	ContextWidth    int     // --context-width, N (3)
	CentralPosition int     // --central-position, P (1)
	CIPhones        []int32 // --ci-phones, sorted: their context is not recorded
	PhoneMap        []int32 // --phone-map: old phone -> new phone (-1 unmapped); nil for none
}

// ErrBadAlignment is returned for an alignment that does not split into
// whole phones; Kaldi warns and skips such an utterance.
var ErrBadAlignment = errors.New("alignment appears to be bad (does not split into whole phones)")

// Accumulator gathers the statistics for tree building over utterances:
// Kaldi's AccumulateTreeStats (hmm/tree-accu.cc) into a
// std::map<EventType, GaussClusterable*>, as acc-tree-stats runs it.
type Accumulator struct {
	opts  AccumulateOptions
	tm    *hmm.TransitionModel
	dim   int
	index map[string]int
	stats tree.BuildTreeStats
}

// NewAccumulator checks the options against the transition model.
func NewAccumulator(tm *hmm.TransitionModel, opts AccumulateOptions) (*Accumulator, error) {
	if opts.ContextWidth < 1 || opts.CentralPosition < 0 || opts.CentralPosition >= opts.ContextWidth {
		return nil, fmt.Errorf("acc-tree-stats: context width %d and central position %d: need 0 <= P < N", opts.ContextWidth, opts.CentralPosition)
	}
	if !slices.IsSorted(opts.CIPhones) || len(slices.Compact(slices.Clone(opts.CIPhones))) != len(opts.CIPhones) {
		return nil, fmt.Errorf("acc-tree-stats: context-independent phones %v not sorted and unique", opts.CIPhones)
	}
	return &Accumulator{opts: opts, tm: tm, dim: -1, index: map[string]int{}}, nil
}

func (a *Accumulator) mapPhone(p int32) (int32, error) {
	if p == 0 || a.opts.PhoneMap == nil {
		return p, nil
	}
	if p < 0 || int(p) >= len(a.opts.PhoneMap) || a.opts.PhoneMap[p] < 0 {
		return 0, fmt.Errorf("out-of-range phone %d: bad --phone-map option?", p)
	}
	return a.opts.PhoneMap[p], nil
}

// pdfClassOf is Kaldi's TransitionIdToPdfClass: the self-loop pdf-class of
// a self-loop, else the forward one.
func pdfClassOf(tm *hmm.TransitionModel, tid int32) int32 {
	phone, state := tm.TransitionIDToPhone(tid), tm.TransitionIDToHmmState(tid)
	entry, _ := tm.Topo.TopologyForPhone(phone)
	if tm.IsSelfLoop(tid) {
		return entry[state].SelfLoopPdfClass
	}
	return entry[state].ForwardPdfClass
}

// Accumulate adds one utterance: every frame's features go to the
// statistics of its event — the phones of the context window around its
// phone (0 beyond the utterance; only the central one for a
// context-independent phone) and its pdf-class. It returns ErrBadAlignment
// (and adds nothing) for an alignment that does not split into phones.
func (a *Accumulator) Accumulate(ali []int32, feats *kaldiio.Matrix) error {
	if feats.Rows != len(ali) {
		return fmt.Errorf("alignment has %d frames, features %d", len(ali), feats.Rows)
	}
	if a.dim >= 0 && feats.Cols != a.dim {
		return fmt.Errorf("features have dimension %d, earlier utterances %d", feats.Cols, a.dim)
	}
	split, ok, err := SplitToPhones(a.tm, ali)
	if err != nil {
		return err
	}
	if !ok {
		return ErrBadAlignment
	}
	phones := make([]int32, len(split))
	for i, s := range split {
		if phones[i], err = a.mapPhone(a.tm.TransitionIDToPhone(s[0])); err != nil {
			return err
		}
	}
	a.dim = feats.Cols
	n, p := a.opts.ContextWidth, a.opts.CentralPosition
	pos := 0
	ev := make(tree.EventType, 0, n+1)
	for c := range split {
		central := phones[c]
		_, ci := slices.BinarySearch(a.opts.CIPhones, central)
		ev = ev[:0]
		ev = append(ev, tree.EventPair{Key: tree.PdfClassKey})
		for j := 0; j < n; j++ {
			if ci && j != p {
				continue
			}
			var ph int32
			if k := c - p + j; k >= 0 && k < len(phones) {
				ph = phones[k]
			}
			ev = append(ev, tree.EventPair{Key: int32(j), Value: ph})
		}
		for _, tid := range split[c] {
			ev[0].Value = pdfClassOf(a.tm, tid)
			k := string(eventBytes(ev))
			i, seen := a.index[k]
			if !seen {
				i = len(a.stats)
				a.index[k] = i
				a.stats = append(a.stats, tree.Stat{Event: slices.Clone(ev), Stats: tree.NewGaussClusterable(a.dim, a.opts.VarFloor)})
			}
			a.stats[i].Stats.AddStats(feats.Data[pos*feats.Cols:(pos+1)*feats.Cols], 1)
			pos++
		}
	}
	return nil
}

// Stats returns the statistics gathered, sorted by event as Kaldi writes
// them. The Accumulator must not be used afterwards.
func (a *Accumulator) Stats() tree.BuildTreeStats {
	a.stats.Sort()
	a.index = nil
	return a.stats
}

// eventBytes is a map key for an event.
func eventBytes(e tree.EventType) []byte {
	b := make([]byte, 0, 8*len(e))
	for _, p := range e {
		b = append(b, byte(p.Key), byte(p.Key>>8), byte(p.Key>>16), byte(p.Key>>24),
			byte(p.Value), byte(p.Value>>8), byte(p.Value>>16), byte(p.Value>>24))
	}
	return b
}
