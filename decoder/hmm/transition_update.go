package hmm

import (
	"flag"
	"fmt"
	"math"
)

// MleTransitionUpdateOptions are Kaldi's MleTransitionUpdateConfig
// (gmm-est's --transition-floor and --transition-min-count).
type MleTransitionUpdateOptions struct {
	Floor    float64 // --transition-floor [0.01]
	MinCount float64 // --transition-min-count [5]
}

// DefaultMleTransitionUpdateOptions are Kaldi's defaults.
func DefaultMleTransitionUpdateOptions() MleTransitionUpdateOptions {
	return MleTransitionUpdateOptions{Floor: 0.01, MinCount: 5}
}

// InitStats is a zero count per transition-id (element 0 unused), Kaldi's
// TransitionModel::InitStats.
func (tm *TransitionModel) InitStats() []float64 { return make([]float64, tm.NumTransitionIDs()+1) }

// MleUpdate is Kaldi's TransitionModel::MleUpdate: each transition-state
// with more than one transition and at least MinCount counts gets the
// relative frequencies of its transitions, floored at Floor and
// renormalised (three times, as Kaldi). It returns the objective
// improvement, the total count, and how many states were skipped and
// probabilities floored.
func (tm *TransitionModel) MleUpdate(stats []float64, opt MleTransitionUpdateOptions) (objfImpr, count float64, skipped, floored int, err error) {
	if len(stats) != tm.NumTransitionIDs()+1 {
		return 0, 0, 0, 0, fmt.Errorf("transition stats have %d elements, the model %d transition-ids (+1)", len(stats), tm.NumTransitionIDs())
	}
	for ts := int32(1); int(ts) <= tm.NumTransitionStates(); ts++ {
		n := tm.NumTransitionIndices(ts)
		if n <= 1 {
			continue
		}
		counts := make([]float64, n)
		tot := 0.0
		for i := range counts {
			counts[i] = stats[tm.PairToTransitionID(ts, int32(i))]
			tot += counts[i]
		}
		count += tot
		if tot < opt.MinCount {
			skipped++
			continue
		}
		old := make([]float32, n)
		probs := make([]float32, n)
		for i := range probs {
			old[i] = tm.TransitionProb(tm.PairToTransitionID(ts, int32(i)))
			probs[i] = float32(counts[i] / tot)
		}
		for range 3 {
			var s float32
			for _, p := range probs {
				s += p
			}
			scale := 1 / s
			for i := range probs {
				probs[i] = max(probs[i]*scale, float32(opt.Floor))
			}
		}
		for i, p := range probs {
			if p == float32(opt.Floor) {
				floored++
			}
			objfImpr += counts[i] * (math.Log(float64(p)) - math.Log(float64(old[i])))
			lp := float32(math.Log(float64(p)))
			if math.IsNaN(float64(lp)) || math.IsInf(float64(lp), 0) {
				return 0, 0, 0, 0, fmt.Errorf("log prob is inf or NaN at transition-state %d: error in update or bad stats?", ts)
			}
			tm.LogProbs[tm.PairToTransitionID(ts, int32(i))] = lp
		}
	}
	return objfImpr, count, skipped, floored, tm.ComputeDerived()
}

// Register adds the options to fs under gmm-est's names.
func (o *MleTransitionUpdateOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.Floor, "transition-floor", o.Floor, "Floor for transition probabilities")
	fs.Float64Var(&o.MinCount, "transition-min-count", o.MinCount, "Minimum count required to update transitions from a state")
}
