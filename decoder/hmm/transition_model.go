package hmm

import (
	"fmt"
	"math"
	"slices"
)

// TransitionTuple identifies a transition-state: phone, HMM state and the
// pdf-ids of its forward transitions and of its self-loop.
type TransitionTuple struct {
	Phone, HmmState         int32
	ForwardPdf, SelfLoopPdf int32
}

// TransitionModel is Kaldi's TransitionModel: transition-states (1-based)
// are tuples, each owning one transition-id (1-based) per transition of
// its HMM state; LogProbs holds log P(transition) per transition-id.
type TransitionModel struct {
	Topo   Topology
	Tuples []TransitionTuple
	// LogProbs is indexed by transition-id; element 0 is unused.
	LogProbs []float32

	state2id        []int32 // transition-state -> first transition-id (len NumTransitionStates+2)
	id2state        []int32 // transition-id -> transition-state
	id2pdf          []int32 // transition-id -> pdf-id
	isSelfLoop      []bool  // transition-id -> self-loop?
	isFinal         []bool  // transition-id -> goes to the final HMM state?
	nonSelfLoopLogP []float32
	numPdfs         int
}

// NumTransitionIDs is the number of transition-ids (they run 1..N).
func (tm *TransitionModel) NumTransitionIDs() int { return len(tm.id2state) - 1 }

// NumTransitionStates is the number of transition-states (1..N).
func (tm *TransitionModel) NumTransitionStates() int { return len(tm.Tuples) }

// NumPdfs is one more than the largest pdf-id of any tuple.
func (tm *TransitionModel) NumPdfs() int { return tm.numPdfs }

// NumPhones is the number of phones with a topology (Kaldi's NumPhones
// is the largest phone; with Kaldi's contiguous phone sets they agree).
func (tm *TransitionModel) NumPhones() int {
	if len(tm.Topo.Phones) == 0 {
		return 0
	}
	return int(tm.Topo.Phones[len(tm.Topo.Phones)-1])
}

// Phones returns the sorted phones of the topology.
func (tm *TransitionModel) Phones() []int32 { return tm.Topo.Phones }

// ValidTransitionID reports whether tid is in 1..NumTransitionIDs.
func (tm *TransitionModel) ValidTransitionID(tid int32) bool {
	return tid >= 1 && int(tid) < len(tm.id2state)
}

// TransitionIDToTransitionState maps a valid transition-id to its state.
func (tm *TransitionModel) TransitionIDToTransitionState(tid int32) int32 { return tm.id2state[tid] }

// TransitionIDToPdf maps a valid transition-id to its pdf-id.
func (tm *TransitionModel) TransitionIDToPdf(tid int32) int32 { return tm.id2pdf[tid] }

// TransitionIDToPdfArray returns the whole tid -> pdf-id table (element 0 is
// -1), for inner loops.
func (tm *TransitionModel) TransitionIDToPdfArray() []int32 { return tm.id2pdf }

// TransitionIDToPhone maps a valid transition-id to its phone.
func (tm *TransitionModel) TransitionIDToPhone(tid int32) int32 {
	return tm.Tuples[tm.id2state[tid]-1].Phone
}

// TransitionIDToHmmState maps a valid transition-id to its HMM state.
func (tm *TransitionModel) TransitionIDToHmmState(tid int32) int32 {
	return tm.Tuples[tm.id2state[tid]-1].HmmState
}

// TransitionIDToTransitionIndex is the index of tid among its state's transitions.
func (tm *TransitionModel) TransitionIDToTransitionIndex(tid int32) int32 {
	return tid - tm.state2id[tm.id2state[tid]]
}

// PairToTransitionID maps (transition-state, transition index) to a transition-id.
func (tm *TransitionModel) PairToTransitionID(tstate, index int32) int32 {
	return tm.state2id[tstate] + index
}

// NumTransitionIndices is the number of transitions out of tstate.
func (tm *TransitionModel) NumTransitionIndices(tstate int32) int {
	return int(tm.state2id[tstate+1] - tm.state2id[tstate])
}

// IsSelfLoop reports whether tid is a self-loop.
func (tm *TransitionModel) IsSelfLoop(tid int32) bool { return tm.isSelfLoop[tid] }

// IsFinal reports whether tid goes to the final state of its phone's HMM.
func (tm *TransitionModel) IsFinal(tid int32) bool { return tm.isFinal[tid] }

// SelfLoopOf returns the self-loop transition-id of tstate, or 0.
func (tm *TransitionModel) SelfLoopOf(tstate int32) int32 {
	for tid := tm.state2id[tstate]; tid < tm.state2id[tstate+1]; tid++ {
		if tm.isSelfLoop[tid] {
			return tid
		}
	}
	return 0
}

// TransitionStateOf returns the transition-state of a tuple, or 0 if the
// model has none.
func (tm *TransitionModel) TransitionStateOf(t TransitionTuple) int32 {
	// Tuples are sorted (Kaldi keeps them so); binary search.
	lo, hi := 0, len(tm.Tuples)
	for lo < hi {
		m := (lo + hi) / 2
		if tupleLess(tm.Tuples[m], t) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo < len(tm.Tuples) && tm.Tuples[lo] == t {
		return int32(lo + 1)
	}
	return 0
}

func tupleLess(a, b TransitionTuple) bool {
	if a.Phone != b.Phone {
		return a.Phone < b.Phone
	}
	if a.HmmState != b.HmmState {
		return a.HmmState < b.HmmState
	}
	if a.ForwardPdf != b.ForwardPdf {
		return a.ForwardPdf < b.ForwardPdf
	}
	return a.SelfLoopPdf < b.SelfLoopPdf
}

// TransitionLogProb is log P(tid).
func (tm *TransitionModel) TransitionLogProb(tid int32) float32 { return tm.LogProbs[tid] }

// TransitionProb is P(tid), as float (Kaldi's Exp of a float).
func (tm *TransitionModel) TransitionProb(tid int32) float32 {
	return float32(math.Exp(float64(tm.LogProbs[tid])))
}

// NonSelfLoopLogProb is log(1 - P(self-loop)) of tstate (0 with no self-loop).
func (tm *TransitionModel) NonSelfLoopLogProb(tstate int32) float32 {
	return tm.nonSelfLoopLogP[tstate]
}

// TransitionLogProbIgnoringSelfLoops is log P(tid | not the self-loop), for
// a transition-id that is not a self-loop.
func (tm *TransitionModel) TransitionLogProbIgnoringSelfLoops(tid int32) float32 {
	return tm.LogProbs[tid] - tm.nonSelfLoopLogP[tm.id2state[tid]]
}

// ComputeDerived builds the mappings from Topo, Tuples and LogProbs and
// checks them (Kaldi's ComputeDerived, ComputeDerivedOfProbs and Check).
func (tm *TransitionModel) ComputeDerived() error {
	if err := tm.Topo.Check(); err != nil {
		return err
	}
	nts := len(tm.Tuples)
	tm.state2id = make([]int32, nts+2)
	cur := int32(1)
	tm.numPdfs = 0
	for ts := 1; ts <= nts+1; ts++ {
		tm.state2id[ts] = cur
		if ts <= nts {
			t := tm.Tuples[ts-1]
			if ts > 1 && !tupleLess(tm.Tuples[ts-2], t) {
				return fmt.Errorf("%w: transition-state tuples not sorted and unique at %d", ErrModel, ts)
			}
			entry, err := tm.Topo.TopologyForPhone(t.Phone)
			if err != nil {
				return err
			}
			if t.HmmState < 0 || int(t.HmmState) >= len(entry)-1 {
				return fmt.Errorf("%w: transition-state %d: hmm-state %d out of range for phone %d", ErrModel, ts, t.HmmState, t.Phone)
			}
			if t.ForwardPdf < 0 || t.SelfLoopPdf < 0 {
				return fmt.Errorf("%w: transition-state %d: negative pdf-id", ErrModel, ts)
			}
			tm.numPdfs = max(tm.numPdfs, int(t.ForwardPdf)+1, int(t.SelfLoopPdf)+1)
			cur += int32(len(entry[t.HmmState].Transitions))
		}
	}
	ntids := int(cur - 1)
	tm.id2state = make([]int32, ntids+1)
	tm.id2pdf = make([]int32, ntids+1)
	tm.isSelfLoop = make([]bool, ntids+1)
	tm.isFinal = make([]bool, ntids+1)
	tm.id2pdf[0] = -1
	for ts := 1; ts <= nts; ts++ {
		t := tm.Tuples[ts-1]
		entry, _ := tm.Topo.TopologyForPhone(t.Phone)
		for tid := tm.state2id[ts]; tid < tm.state2id[ts+1]; tid++ {
			tm.id2state[tid] = int32(ts)
			dest := entry[t.HmmState].Transitions[tid-tm.state2id[ts]].Dest
			tm.isSelfLoop[tid] = dest == t.HmmState
			tm.isFinal[tid] = int(dest)+1 == len(entry)
			if tm.isSelfLoop[tid] {
				tm.id2pdf[tid] = t.SelfLoopPdf
			} else {
				tm.id2pdf[tid] = t.ForwardPdf
			}
		}
	}
	if len(tm.LogProbs) != ntids+1 {
		return fmt.Errorf("%w: %d log-probs for %d transition-ids (want %d)", ErrModel, len(tm.LogProbs), ntids, ntids+1)
	}
	tm.nonSelfLoopLogP = make([]float32, nts+1)
	for ts := 1; ts <= nts; ts++ {
		if tid := tm.SelfLoopOf(int32(ts)); tid != 0 {
			// Kaldi: BaseFloat self = Exp(logp); non = 1.0 - self (double); Log(float).
			self := float32(math.Exp(float64(tm.LogProbs[tid])))
			non := float32(1.0 - float64(self))
			if non <= 0 {
				non = 1e-10
			}
			tm.nonSelfLoopLogP[ts] = float32(math.Log(float64(non)))
		}
	}
	return nil
}

// NewTransitionModel builds a monophone-style transition model from a
// topology and a function giving the (forward, self-loop) pdf-ids of each
// (phone, HMM state), with the topology's initial probabilities (Kaldi's
// constructor from a tree followed by InitializeProbs).
func NewTransitionModel(topo Topology, pdfs func(phone, hmmState int32) (fwd, self int32, err error)) (*TransitionModel, error) {
	return NewTransitionModelMulti(topo, func(phone, hmmState int32) ([][2]int32, error) {
		fwd, self, err := pdfs(phone, hmmState)
		return [][2]int32{{fwd, self}}, err
	})
}

// NewTransitionModelMulti is NewTransitionModel for context-dependent
// systems: pdfs lists every (forward, self-loop) pdf-id pair a (phone, HMM
// state) can have (one per tree leaf).
func NewTransitionModelMulti(topo Topology, pdfs func(phone, hmmState int32) ([][2]int32, error)) (*TransitionModel, error) {
	tm := &TransitionModel{Topo: topo}
	if err := topo.Check(); err != nil {
		return nil, err
	}
	for _, p := range topo.Phones {
		entry, _ := topo.TopologyForPhone(p)
		for s := 0; s+1 < len(entry); s++ {
			if entry[s].ForwardPdfClass == NoPdf {
				continue
			}
			pairs, err := pdfs(p, int32(s))
			if err != nil {
				return nil, err
			}
			for _, fs := range pairs {
				tm.Tuples = append(tm.Tuples, TransitionTuple{p, int32(s), fs[0], fs[1]})
			}
		}
	}
	sortTuples(tm.Tuples)
	tm.Tuples = slices.Compact(tm.Tuples)
	// Initial probabilities from the topology.
	tm.LogProbs = []float32{0}
	for _, t := range tm.Tuples {
		entry, _ := topo.TopologyForPhone(t.Phone)
		for _, tr := range entry[t.HmmState].Transitions {
			tm.LogProbs = append(tm.LogProbs, float32(math.Log(float64(tr.Prob))))
		}
	}
	if err := tm.ComputeDerived(); err != nil {
		return nil, err
	}
	return tm, nil
}

func sortTuples(ts []TransitionTuple) {
	for i := 1; i < len(ts); i++ {
		for j := i; j > 0 && tupleLess(ts[j], ts[j-1]); j-- {
			ts[j], ts[j-1] = ts[j-1], ts[j]
		}
	}
}

// CheckAlignment returns an error naming the first transition-id of ali that
// the model does not have.
func (tm *TransitionModel) CheckAlignment(ali []int32) error {
	for i, tid := range ali {
		if !tm.ValidTransitionID(tid) {
			return fmt.Errorf("%w: transition-id %d at frame %d is not in the model (1..%d)", ErrModel, tid, i, tm.NumTransitionIDs())
		}
	}
	return nil
}
