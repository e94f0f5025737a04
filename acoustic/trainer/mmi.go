package trainer

import (
	"fmt"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/lattice"
)

// SequenceStats are the sequence objective's sums over utterances (nnet1's
// nnet-train-mmi-sequential and nnet-train-mpe-sequential report them per
// utterance and in total).
type SequenceStats struct {
	Criterion  string // CriterionMMI or CriterionSMBR
	Utterances int
	Frames     int     // frames of those utterances
	Dropped    int     // MMI: frames whose numerator pdf the denominator lattice lacks (--drop-frames)
	Objective  float64 // MMI: Σ (num − den), κ·Σ_t log p(x_t|y_t) − log Σ_paths; sMBR: Σ expected frame accuracy
}

// Add adds o to s.
func (s *SequenceStats) Add(o SequenceStats) {
	if s.Criterion == "" {
		s.Criterion = o.Criterion
	}
	s.Utterances += o.Utterances
	s.Frames += o.Frames
	s.Dropped += o.Dropped
	s.Objective += o.Objective
}

func (s SequenceStats) String() string {
	per := s.Objective / float64(max(1, s.Frames))
	if s.Criterion == CriterionSMBR {
		return fmt.Sprintf("sMBR objective %.4f per frame over %d frames of %d utterances (the expected frame accuracy of the denominator lattices' paths against the alignment)", per, s.Frames, s.Utterances)
	}
	return fmt.Sprintf("MMI objective %.4f per frame over %d frames of %d utterances; %d frames (%.2f%%) dropped (numerator pdf not in the denominator lattice)",
		per, s.Frames, s.Utterances, s.Dropped, 100*float64(s.Dropped)/float64(max(1, s.Frames)))
}

// MMI is one utterance of nnet1's MMI sequence training
// (nnet-train-mmi-sequential, Veselý et al. 2013): the denominator
// lattice den (its graph scores kept, scaled by lmScale; its acoustic
// scores replaced by the network's loglikes, T×P row-major log p(x_t|s) =
// log-posterior − log prior, scaled by acwt κ), the numerator the frame
// alignment num (pdf-ids). It returns, T×P, the derivative of the
// objective
//
//	F = κ·Σ_t loglike(t, num_t) − log Σ_{paths of den} exp(−lmScale·graph − κ·acoustic)
//
// with respect to the network's pre-softmax outputs L,
//
//	∂F/∂L_tj = κ·(γ_num(t, j) − γ_den(t, j))
//
// (the loglikes are log-softmax(L) − log prior, and both posteriors sum
// to one per frame, so the softmax's Jacobian cancels), without κ as nnet1
// backpropagates it (its learning rate absorbs κ): q_tj = 1{j = num_t} −
// γ_den(t, j). With dropFrames, a frame whose numerator pdf has no
// denominator posterior gets q = 0 (nnet1's --drop-frames: such frames are
// what makes MMI diverge). den is consumed (rescored in place); it must be
// a state-level lattice of T frames.
func MMI(den *lattice.Lattice, loglikes []float32, num []int32, tm *hmm.TransitionModel, acwt, lmScale float64, dropFrames bool) (q []float32, st SequenceStats, err error) {
	T, P := len(num), tm.NumPdfs()
	if err := rescoreDen(den, loglikes, T, tm, acwt, lmScale); err != nil {
		return nil, st, err
	}
	pdfOf := tm.TransitionIDToPdfArray()
	post, denLike, err := den.ForwardBackward(func(string, ...any) {}, nil)
	if err != nil {
		return nil, st, err
	}
	if len(post) != T {
		return nil, st, fmt.Errorf("trainer: MMI: lattice posteriors for %d frames, alignment %d", len(post), T)
	}
	q = make([]float32, T*P)
	numLike := 0.0
	for t, y := range num {
		if y < 0 || int(y) >= P {
			return nil, st, fmt.Errorf("trainer: MMI: frame %d: pdf %d outside [0, %d)", t, y, P)
		}
		numLike += float64(loglikes[t*P+int(y)])
		row := q[t*P : (t+1)*P]
		for _, e := range post[t] {
			row[pdfOf[e.ID]] -= e.Weight
		}
		if dropFrames && row[y] == 0 {
			clear(row)
			st.Dropped++
			continue
		}
		row[y]++
	}
	st.Criterion, st.Utterances, st.Frames = CriterionMMI, 1, T
	st.Objective = acwt*numLike - denLike
	return q, st, nil
}

// rescoreDen puts the network's scores on the denominator lattice as nnet1
// does before its forward-backward: graph scores scaled by lmScale, the old
// acoustic scores dropped (--old-acoustic-scale=0), each arc's acoustic
// score the loglike of its pdf on its frame (T×P rows, P the transition
// model's pdfs), scaled by acwt; den is topologically sorted.
func rescoreDen(den *lattice.Lattice, loglikes []float32, T int, tm *hmm.TransitionModel, acwt, lmScale float64) error {
	P := tm.NumPdfs()
	if T == 0 || len(loglikes) != T*P {
		return fmt.Errorf("trainer: %d loglikes for %d frames of %d pdfs", len(loglikes), T, P)
	}
	den.Scale(lattice.LatticeScale(float32(lmScale), 0))
	if err := den.TopSort(); err != nil {
		return err
	}
	pdfOf := tm.TransitionIDToPdfArray()
	if err := den.AcousticRescore(T, func(t int, tid int32) (float32, error) {
		if tid <= 0 || int(tid) >= len(pdfOf) {
			return 0, fmt.Errorf("transition-id %d outside the transition model's 1..%d", tid, len(pdfOf)-1)
		}
		return loglikes[t*P+int(pdfOf[tid])], nil
	}); err != nil {
		return err
	}
	den.Scale(lattice.LatticeScale(1, float32(acwt)))
	return nil
}
