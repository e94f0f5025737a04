package hmm

import (
	"errors"
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/tree"
)

// NoPdf marks a non-emitting HMM state (Kaldi's kNoPdf).
const NoPdf = -1

// ErrModel is wrapped by errors about HMM topologies, transition models and
// trees that are malformed or inconsistent. It is the tree's ErrModel: one
// sentinel for both halves of Kaldi's acoustic model.
var ErrModel = tree.ErrModel

// ErrDimMismatch is wrapped by errors about data whose dimension does not
// fit the model (counts or log-likelihoods with a number of pdfs other than
// the model's).
var ErrDimMismatch = errors.New("dimension mismatch")

// Transition is one transition of a topology state: destination HMM
// state and its initial probability.
type Transition struct {
	Dest int32
	Prob float32
}

// State is a state of a topology entry: the pdf-classes of its forward
// transitions and of its self-loop (equal in an ordinary HMM; NoPdf for the
// final, non-emitting state) and its transitions.
type State struct {
	ForwardPdfClass  int32
	SelfLoopPdfClass int32
	Transitions      []Transition
}

// TopologyEntry is the HMM of one set of phones; its last state is the
// final, non-emitting one.
type TopologyEntry []State

// Topology is Kaldi's HmmTopology: one TopologyEntry per set of phones.
type Topology struct {
	Phones    []int32 // sorted phones that have a topology
	Phone2Idx []int32 // phone -> entry index, -1 when absent
	Entries   []TopologyEntry
}

// IsHmm reports whether every state's forward and self-loop pdf-classes
// agree (Kaldi's IsHmm; decides the file format written).
func (t *Topology) IsHmm() bool {
	for _, e := range t.Entries {
		for _, s := range e {
			if s.ForwardPdfClass != s.SelfLoopPdfClass {
				return false
			}
		}
	}
	return true
}

// TopologyForPhone returns the HMM of phone, or an error if it has none.
func (t *Topology) TopologyForPhone(phone int32) (TopologyEntry, error) {
	if phone < 0 || int(phone) >= len(t.Phone2Idx) || t.Phone2Idx[phone] < 0 {
		return nil, fmt.Errorf("%w: phone %d has no topology", ErrModel, phone)
	}
	return t.Entries[t.Phone2Idx[phone]], nil
}

// NumPdfClasses is the number of pdf-classes of phone's HMM (one more than
// the largest pdf-class of its states).
func (t *Topology) NumPdfClasses(phone int32) (int, error) {
	e, err := t.TopologyForPhone(phone)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, s := range e {
		n = max(n, int(s.ForwardPdfClass)+1, int(s.SelfLoopPdfClass)+1)
	}
	return n, nil
}

// Check validates the topology as Kaldi's HmmTopology::Check does (phones
// sorted and consistent with Phone2Idx, transitions in range, the last state
// of each entry final and non-emitting, probabilities non-negative).
func (t *Topology) Check() error {
	if len(t.Entries) == 0 || len(t.Phones) == 0 {
		return fmt.Errorf("%w: empty topology", ErrModel)
	}
	if !slices.IsSorted(t.Phones) {
		return fmt.Errorf("%w: topology phones not sorted", ErrModel)
	}
	for i, p := range t.Phones {
		if p <= 0 || (i > 0 && p == t.Phones[i-1]) {
			return fmt.Errorf("%w: bad or repeated phone %d in topology", ErrModel, p)
		}
		if int(p) >= len(t.Phone2Idx) || t.Phone2Idx[p] < 0 || int(t.Phone2Idx[p]) >= len(t.Entries) {
			return fmt.Errorf("%w: phone %d has no valid topology entry", ErrModel, p)
		}
	}
	for ei, e := range t.Entries {
		if len(e) < 1 {
			return fmt.Errorf("%w: topology entry %d has no states", ErrModel, ei)
		}
		last := len(e) - 1
		if e[last].ForwardPdfClass != NoPdf || len(e[last].Transitions) != 0 {
			return fmt.Errorf("%w: topology entry %d: last state must be final and non-emitting", ErrModel, ei)
		}
		for si, s := range e {
			if si < last && (s.ForwardPdfClass == NoPdf) != (s.SelfLoopPdfClass == NoPdf) {
				return fmt.Errorf("%w: topology entry %d state %d: forward and self-loop pdf-classes disagree on emitting", ErrModel, ei, si)
			}
			if si < last && len(s.Transitions) == 0 {
				return fmt.Errorf("%w: topology entry %d state %d has no transitions", ErrModel, ei, si)
			}
			seen := map[int32]bool{}
			for _, tr := range s.Transitions {
				if tr.Dest < 0 || int(tr.Dest) > last || tr.Prob < 0 || seen[tr.Dest] {
					return fmt.Errorf("%w: topology entry %d state %d: bad transition to %d (p=%g)", ErrModel, ei, si, tr.Dest, tr.Prob)
				}
				seen[tr.Dest] = true
			}
		}
	}
	return nil
}

// SetPhones fills Phones and Phone2Idx from the phones of each entry
// (forPhones[i] are the phones of Entries[i], <ForPhones> in the text
// form), as Kaldi's text reader does.
func (t *Topology) SetPhones(forPhones [][]int32) error {
	maxPhone := int32(0)
	for _, ps := range forPhones {
		for _, p := range ps {
			if p <= 0 {
				return fmt.Errorf("%w: phone %d in <ForPhones>", ErrModel, p)
			}
			maxPhone = max(maxPhone, p)
		}
	}
	t.Phone2Idx = make([]int32, maxPhone+1)
	for i := range t.Phone2Idx {
		t.Phone2Idx[i] = -1
	}
	t.Phones = t.Phones[:0]
	for ei, ps := range forPhones {
		for _, p := range ps {
			if t.Phone2Idx[p] != -1 {
				return fmt.Errorf("%w: phone %d appears in two topology entries", ErrModel, p)
			}
			t.Phone2Idx[p] = int32(ei)
			t.Phones = append(t.Phones, p)
		}
	}
	slices.Sort(t.Phones)
	return nil
}
