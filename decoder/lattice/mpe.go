package lattice

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/kaldiio"
)

// ForwardBackwardMpe is Kaldi's LatticeForwardBackwardMpeVariants
// (src/lat/lattice-functions.cc), the statistics of MPE-style sequence
// training (Povey's MPFE and sMBR), with the accuracy left to the caller:
// frameAcc(t, tid) is the accuracy of transition-id tid on frame t against
// the reference (for sMBR 1 where its pdf is the alignment's, else 0). It
// returns the expected accuracy c̄ of the lattice's paths, weighted by their
// posteriors, and for every frame the derivative of c̄ with respect to the
// log-score of each transition-id there,
//
//	∂c̄/∂log w_a = γ_a·(c_a − c̄),
//
// summed over the arcs a that carry that transition-id on that frame (the
// entries sorted by transition-id, equal ids summed: MergePairVectorSumming),
// where γ_a is the arc's posterior and c_a the expected accuracy of the paths
// through it. Two passes as Kaldi's: log-domain α and β for the posteriors,
// then expected accuracies forward (α_acc, the accuracy of the paths into a
// state) and backward (β_acc, out of it), so that c_a = α_acc(from) +
// acc(a) + β_acc(to). The lattice must be topologically sorted with the
// states of a frame before those of the next (TopSort), its final states at
// frame T. A forward and backward total that disagree by more than Kaldi's
// tolerances (1e-6 for the likelihood, 1e-4 for the accuracy) are an error,
// as Kaldi's KALDI_ERR.
func (l *Lattice) ForwardBackwardMpe(T int, frameAcc func(t int, tid int32) float64) (kaldiio.Posterior, float64, error) {
	times, maxT, err := l.StateTimes()
	if err != nil {
		return nil, 0, err
	}
	if maxT != T {
		return nil, 0, fmt.Errorf("lattice has %d frames, the reference %d", maxT, T)
	}
	n := len(l.States)
	negInf := math.Inf(-1)
	alpha, beta := make([]float64, n), make([]float64, n)
	alphaAcc, betaAcc := make([]float64, n), make([]float64, n)
	for i := range alpha {
		alpha[i], beta[i] = negInf, negInf
	}
	alpha[l.Start] = 0
	totFwd := negInf
	for s := range l.States {
		st := &l.States[s]
		for _, arc := range st.Arcs {
			alpha[arc.Next] = logAdd(alpha[arc.Next], alpha[s]-latCost(arc.W))
		}
		if !st.Final.IsZero() && times[s] >= 0 {
			if int(times[s]) != maxT {
				return nil, 0, fmt.Errorf("lattice is inconsistent: final state %d at frame %d, the utterance has %d frames", s, times[s], maxT)
			}
			totFwd = logAdd(totFwd, alpha[s]-latCost(st.Final))
		}
	}
	if math.IsInf(totFwd, -1) {
		return nil, 0, ErrNoPath
	}
	for s := n - 1; s >= 0; s-- {
		st := &l.States[s]
		b := negInf
		if !st.Final.IsZero() {
			b = -latCost(st.Final)
		}
		for _, arc := range st.Arcs {
			b = logAdd(b, beta[arc.Next]-latCost(arc.W))
		}
		beta[s] = b
	}
	if !approxEqual64(totFwd, beta[l.Start], 1e-6) {
		return nil, 0, fmt.Errorf("total forward probability over the lattice %g, backward %g", totFwd, beta[l.Start])
	}
	acc := func(s int, tid int32) float64 {
		if tid == 0 || times[s] < 0 {
			return 0
		}
		return frameAcc(int(times[s]), tid)
	}
	// scale is exp(x) with Kaldi's guard against NaN: a state no complete
	// path reaches has α or β of −∞, and its arcs then count for nothing.
	scale := func(x float64) float64 {
		if math.IsNaN(x) {
			return 0
		}
		return math.Exp(x)
	}
	totAcc := 0.0
	for s := range l.States {
		st := &l.States[s]
		for _, arc := range st.Arcs {
			w := scale(alpha[s] - latCost(arc.W) - alpha[arc.Next])
			alphaAcc[arc.Next] += w * (alphaAcc[s] + acc(s, arc.ILabel))
		}
		if !st.Final.IsZero() && times[s] >= 0 {
			totAcc += scale(alpha[s]-latCost(st.Final)-totFwd) * alphaAcc[s]
		}
	}
	post := make(kaldiio.Posterior, maxT)
	for s := n - 1; s >= 0; s-- {
		for _, arc := range l.States[s].Arcs {
			arcBeta := beta[arc.Next] - latCost(arc.W)
			a := acc(s, arc.ILabel)
			betaAcc[s] += scale(arcBeta-beta[s]) * (betaAcc[arc.Next] + a)
			if arc.ILabel != 0 && times[s] >= 0 {
				gamma := scale(alpha[s] + arcBeta - totFwd)
				d := gamma * (alphaAcc[s] + a + betaAcc[arc.Next] - totAcc)
				post[times[s]] = append(post[times[s]], kaldiio.PostEntry{ID: arc.ILabel, Weight: float32(d)})
			}
		}
	}
	if !approxEqual64(totAcc, betaAcc[l.Start], 1e-4) {
		return nil, 0, fmt.Errorf("total forward accuracy over the lattice %g, backward %g", totAcc, betaAcc[l.Start])
	}
	for t := range post {
		post[t] = mergePairsSumming(post[t])
	}
	return post, totAcc, nil
}
