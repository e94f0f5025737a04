package lattice

import (
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/kaldiio"
)

// StateTimes is Kaldi's LatticeStateTimes: the frame index of every state of
// a topologically sorted lattice (the number of transition-ids on any path
// from the start to it) and the largest of them, the utterance length. A
// state reached at two different times, or an arc going backwards, is an
// error (Kaldi asserts); states not reachable from the start get −1.
func (l *Lattice) StateTimes() ([]int32, int, error) {
	n := len(l.States)
	times := make([]int32, n)
	for i := range times {
		times[i] = -1
	}
	if l.Start < 0 || int(l.Start) >= n {
		return times, 0, ErrNoPath
	}
	times[l.Start] = 0
	maxT := int32(0)
	for s := range l.States {
		cur := times[s]
		if cur < 0 {
			continue
		}
		maxT = max(maxT, cur)
		for _, a := range l.States[s].Arcs {
			if a.Next <= int32(s) {
				return nil, 0, fmt.Errorf("lattice is not topologically sorted: arc from state %d to %d", s, a.Next)
			}
			want := cur
			if a.ILabel != 0 {
				want = cur + 1
			}
			switch times[a.Next] {
			case -1:
				times[a.Next] = want
			case want:
			default:
				return nil, 0, fmt.Errorf("lattice state %d is reached at frames %d and %d: not a state-level lattice of one utterance", a.Next, times[a.Next], want)
			}
		}
	}
	return times, int(maxT), nil
}

// ForwardBackward is Kaldi's LatticeForwardBackward: the posterior of every
// transition-id on every frame (the sum over the arcs that carry it there of
// α·arc·β / total), entries of a frame sorted by transition-id with equal
// ids summed and zero sums dropped (MergePairVectorSumming), and the total
// log-likelihood of the lattice (its backward probability: minus the costs,
// as scaled). acousticLike, when not nil, receives Kaldi's
// acoustic_like_sum: minus the expected acoustic cost. The lattice must be
// topologically sorted (TopSort); a lattice whose forward and backward
// totals disagree gets Kaldi's warning through warn.
func (l *Lattice) ForwardBackward(warn func(string, ...any), acousticLike *float64) (kaldiio.Posterior, float64, error) {
	times, maxT, err := l.StateTimes()
	if err != nil {
		return nil, 0, err
	}
	n := len(l.States)
	alpha := make([]float64, n)
	negInf := math.Inf(-1)
	for i := range alpha {
		alpha[i] = negInf
	}
	alpha[l.Start] = 0
	totFwd := negInf
	for s := range l.States {
		st := &l.States[s]
		a := alpha[s]
		if math.IsInf(a, -1) {
			continue
		}
		for _, arc := range st.Arcs {
			alpha[arc.Next] = logAdd(alpha[arc.Next], a-latCost(arc.W))
		}
		if !st.Final.IsZero() {
			totFwd = logAdd(totFwd, a-latCost(st.Final))
			if int(times[s]) != maxT {
				return nil, 0, fmt.Errorf("lattice is inconsistent: final state %d at frame %d, the utterance has %d frames", s, times[s], maxT)
			}
		}
	}
	if math.IsInf(totFwd, -1) {
		return nil, 0, ErrNoPath
	}
	post := make(kaldiio.Posterior, maxT)
	beta := make([]float64, n)
	if acousticLike != nil {
		*acousticLike = 0
	}
	for s := n - 1; s >= 0; s-- {
		st := &l.States[s]
		b := negInf
		if !st.Final.IsZero() {
			b = -latCost(st.Final)
		}
		for _, arc := range st.Arcs {
			arcBeta := beta[arc.Next] - latCost(arc.W)
			b = logAdd(b, arcBeta)
			if times[s] < 0 {
				continue
			}
			if arc.ILabel != 0 || acousticLike != nil {
				p := math.Exp(alpha[s] + arcBeta - totFwd)
				if arc.ILabel != 0 {
					post[times[s]] = append(post[times[s]], kaldiio.PostEntry{ID: arc.ILabel, Weight: float32(p)})
				}
				if acousticLike != nil {
					*acousticLike -= p * float64(arc.W.Acoustic)
				}
			}
		}
		if acousticLike != nil && !st.Final.IsZero() && times[s] >= 0 {
			p := math.Exp(alpha[s] - latCost(st.Final) - totFwd)
			*acousticLike -= p * float64(st.Final.Acoustic)
		}
		beta[s] = b
	}
	totBwd := beta[l.Start]
	if !approxEqual64(totFwd, totBwd, 1e-8) && warn != nil {
		warn("Total forward probability over lattice = %s, while total backward probability = %s", g6(totFwd), g6(totBwd))
	}
	for t := range post {
		post[t] = mergePairsSumming(post[t])
	}
	return post, totBwd, nil
}

// approxEqual64 is Kaldi's ApproxEqual(a, b, tol).
func approxEqual64(a, b, tol float64) bool {
	if a == b {
		return true
	}
	diff := math.Abs(a - b)
	if math.IsInf(diff, 0) || diff != diff {
		return false
	}
	return diff <= tol*(math.Abs(a)+math.Abs(b))
}

// mergePairsSumming is Kaldi's MergePairVectorSumming: sorted by id, equal
// ids summed, entries summing to zero removed.
func mergePairsSumming(v []kaldiio.PostEntry) []kaldiio.PostEntry {
	slices.SortStableFunc(v, func(a, b kaldiio.PostEntry) int {
		switch {
		case a.ID < b.ID:
			return -1
		case a.ID > b.ID:
			return 1
		}
		return 0
	})
	out := v[:0]
	for i := 0; i < len(v); {
		e := v[i]
		j := i + 1
		for ; j < len(v) && v[j].ID == e.ID; j++ {
			e.Weight += v[j].Weight
		}
		if e.Weight != 0 {
			out = append(out, e)
		}
		i = j
	}
	return out
}

// g6 prints as a C++ stream does (6 significant digits).
func g6(v float64) string { return hmm.FormatG6(v) }

// ErrLength is wrapped by AcousticRescore's error for a lattice whose
// length is not the features'.
var ErrLength = errors.New("lattice and features differ in length")

// AcousticRescore is Kaldi's LatticeAcousticRescore (gmm-rescore-lattice):
// on a topologically sorted lattice of numFrames frames, every arc with a
// transition-id gets like(t, tid) subtracted from its acoustic cost (t the
// frame of its source state; like is called once per such arc, the caller
// caches by pdf), and epsilon-input arcs and final
// weights get acoustic cost 0. A lattice whose length is not numFrames is
// an error.
func (l *Lattice) AcousticRescore(numFrames int, like func(t int, tid int32) (float32, error)) error {
	times, maxT, err := l.StateTimes()
	if err != nil {
		return err
	}
	if maxT != numFrames {
		return fmt.Errorf("%w: number of time frames in lattice (%d) differs from number of feature frames (%d)", ErrLength, maxT, numFrames)
	}
	for s := range l.States {
		st := &l.States[s]
		for i := range st.Arcs {
			a := &st.Arcs[i]
			if a.ILabel == 0 {
				a.W.Acoustic = 0
				continue
			}
			if times[s] < 0 {
				continue
			}
			ll, err := like(int(times[s]), a.ILabel)
			if err != nil {
				return err
			}
			a.W.Acoustic += -ll
		}
		if !st.Final.IsZero() {
			st.Final.Acoustic = 0
		}
	}
	return nil
}
