package trainer

import (
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/lattice"
)

// The sequence criteria of --criterion: nnet1's two sequence trainers,
// nnet-train-mmi-sequential and nnet-train-mpe-sequential --do-smbr=true
// (the names nnet3's discriminative training gives them).
const (
	CriterionMMI  = "mmi"
	CriterionSMBR = "smbr"
)

// SmbrAccuracy is sMBR's frame accuracy (LatticeForwardBackwardMpeVariants'
// "smbr" criterion): an arc of the denominator lattice is right on frame t
// when its pdf is the alignment's. Silence phones (--silence-phones) are
// never right, or with oneSilenceClass (train_mpe.sh's default) all of
// them are one class: a silence arc on a silence frame is right whatever
// its pdf. The alignment here is of pdfs, so a reference frame is silence
// when its pdf belongs to silence phones only; a pdf that silence and
// non-silence phones share is refused (Kaldi's trees give silence phones
// their own roots, so none does).
type SmbrAccuracy struct {
	pdfOf           []int32
	tidSil          []bool // per transition-id: its phone is a silence phone
	pdfSil          []bool // per pdf: its phones are silence phones
	OneSilenceClass bool
}

// NewSmbrAccuracy classifies tm's transition-ids and pdfs by silence.
func NewSmbrAccuracy(tm *hmm.TransitionModel, silencePhones []int32, oneSilenceClass bool) (*SmbrAccuracy, error) {
	a := &SmbrAccuracy{pdfOf: tm.TransitionIDToPdfArray(), OneSilenceClass: oneSilenceClass}
	n := tm.NumTransitionIDs()
	a.tidSil = make([]bool, n+1)
	a.pdfSil = make([]bool, tm.NumPdfs())
	nonSil := make([]bool, tm.NumPdfs())
	for tid := int32(1); tid <= int32(n); tid++ {
		ph, pdf := tm.TransitionIDToPhone(tid), a.pdfOf[tid]
		if slices.Contains(silencePhones, ph) {
			a.tidSil[tid] = true
			a.pdfSil[pdf] = true
		} else {
			nonSil[pdf] = true
		}
	}
	for pdf, sil := range a.pdfSil {
		if sil && nonSil[pdf] {
			return nil, fmt.Errorf("sMBR: pdf %d is shared by silence and non-silence phones (--silence-phones %v): the alignment's pdfs cannot tell silence frames", pdf, silencePhones)
		}
	}
	return a, nil
}

// Frame is the accuracy of transition-id tid on a frame whose alignment
// pdf is ref.
func (a *SmbrAccuracy) Frame(tid, ref int32) float64 {
	sil := a.tidSil[tid]
	if a.pdfOf[tid] == ref && (a.OneSilenceClass || !sil) {
		return 1
	}
	if a.OneSilenceClass && sil && a.pdfSil[ref] {
		return 1
	}
	return 0
}

// SMBR is one utterance of nnet1's sMBR sequence training
// (nnet-train-mpe-sequential --do-smbr=true; Veselý et al. 2013): the
// denominator lattice den rescored as MMI's (graph scores × lmScale, the
// network's loglikes × acwt κ), the reference the alignment num (pdf-ids).
// The objective is the expected frame accuracy A of the lattice's paths
// (acc's), and ∂A/∂(log score of an arc) = γ·(c_arc − A)
// (lattice.ForwardBackwardMpe); the loglikes enter the scores times κ, and
// these derivatives sum to zero on every frame (each path crosses it once),
// so as for MMI the softmax's Jacobian cancels and, without κ (nnet1's
// learning rate absorbs it), the derivative with respect to the pre-softmax
// outputs is q_tj = Σ over frame t's arcs of pdf j of γ·(c_arc − A). den is
// consumed; it must be a state-level lattice of T frames.
func SMBR(den *lattice.Lattice, loglikes []float32, num []int32, tm *hmm.TransitionModel, acwt, lmScale float64, acc *SmbrAccuracy) (q []float32, st SequenceStats, err error) {
	T, P := len(num), tm.NumPdfs()
	for t, y := range num {
		if y < 0 || int(y) >= P {
			return nil, st, fmt.Errorf("trainer: sMBR: frame %d: pdf %d outside [0, %d)", t, y, P)
		}
	}
	if err := rescoreDen(den, loglikes, T, tm, acwt, lmScale); err != nil {
		return nil, st, err
	}
	post, avg, err := den.ForwardBackwardMpe(T, func(t int, tid int32) float64 { return acc.Frame(tid, num[t]) })
	if err != nil {
		return nil, st, err
	}
	pdfOf := tm.TransitionIDToPdfArray()
	q = make([]float32, T*P)
	for t, row := range post {
		for _, e := range row {
			q[t*P+int(pdfOf[e.ID])] += e.Weight
		}
	}
	st = SequenceStats{Criterion: CriterionSMBR, Utterances: 1, Frames: T, Objective: avg}
	return q, st, nil
}
