package fstalg

import (
	"math"

	"github.com/strode-asr/strode/decoder/fst"
)

// PushSpecial pushes weights in the log semiring the way Kaldi's
// fstpushspecial does (mkgraph.sh runs it on LG): the FST is seen as a
// Markov chain in which final states return to the start, and each state
// s gets a potential v_s, the leading eigenvector of that chain's matrix
// of arc probabilities (found by power iteration until it changes by less
// than delta in log, or after maxIter rounds). Arcs are reweighted
//
//	w'(s→t) = w + log v_s − log v_t,   final'(s) = final + log v_s − log v_start,
//
// so every state's outgoing probabilities (final included) sum to the
// same value, and leftover weight is spread evenly instead of piling up
// at the start or at the end. Along any complete path the potentials
// cancel, so every path keeps its weight exactly, converged or not. It
// returns the number of iterations run.
func PushSpecial(f *fst.VectorFst, delta float64, maxIter int) int {
	n := len(f.States)
	if n == 0 || f.Start == fst.NoState {
		return 0
	}
	if delta <= 0 {
		delta = float64(fst.KDelta)
	}
	if maxIter <= 0 {
		maxIter = 1000
	}
	lv := make([]float64, n) // log v
	lu := make([]float64, n)
	iter := 0
	for iter < maxIter {
		iter++
		for s := range f.States {
			st := &f.States[s]
			acc := math.Inf(-1)
			if st.Final != fst.WeightZero {
				acc = logAdd(acc, -float64(st.Final)+lv[f.Start])
			}
			for _, a := range st.Arcs {
				if a.Weight != fst.WeightZero {
					acc = logAdd(acc, -float64(a.Weight)+lv[a.NextState])
				}
			}
			lu[s] = acc
		}
		norm := lu[f.Start]
		if math.IsInf(norm, 0) || math.IsNaN(norm) {
			return iter // nothing sensible to push toward
		}
		change := 0.0
		for s := range lu {
			x := lu[s] - norm
			if math.IsInf(x, -1) {
				x = lv[s] // a state with no mass keeps its potential
			}
			change = max(change, math.Abs(x-lv[s]))
			lv[s] = x
		}
		if change < delta {
			break
		}
	}
	for s := range f.States {
		st := &f.States[s]
		if st.Final != fst.WeightZero {
			st.Final = float32(float64(st.Final) + lv[s] - lv[f.Start])
		}
		for i := range st.Arcs {
			a := &st.Arcs[i]
			if a.Weight != fst.WeightZero {
				a.Weight = float32(float64(a.Weight) + lv[s] - lv[a.NextState])
			}
		}
	}
	return iter
}

// logAdd is log(e^a + e^b).
func logAdd(a, b float64) float64 {
	if math.IsInf(a, -1) {
		return b
	}
	if math.IsInf(b, -1) {
		return a
	}
	if a < b {
		a, b = b, a
	}
	return a + math.Log1p(math.Exp(b-a))
}
