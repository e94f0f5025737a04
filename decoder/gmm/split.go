package gmm

import (
	"math"

	"github.com/strode-asr/strode/internal/glibcrand"
)

// MixUpOptions are gmm-est's options of mixing up (Kaldi's names and
// defaults).
type MixUpOptions struct {
	MixUp         int     // --mix-up: target total number of Gaussians [0: none]
	Power         float64 // --power: the exponent of the occupancy in the allocation [0.2]
	MinCount      float64 // --min-count: frames per Gaussian a pdf needs [20]
	PerturbFactor float64 // --perturb-factor: the spread of a split's two means, in standard deviations [0.01]
}

// DefaultMixUpOptions are gmm-est's defaults.
func DefaultMixUpOptions() MixUpOptions {
	return MixUpOptions{Power: 0.2, MinCount: 20, PerturbFactor: 0.01}
}

// splitCount is Kaldi's CountStats: a pdf, its number of Gaussians so far
// and occ^power in float (0 once min-count forbids further splits).
type splitCount struct {
	pdf, n int
	occ    float32
}

// less is CountStats::operator<: occ/n, the float promoted to double.
func (a splitCount) less(b splitCount) bool {
	return float64(a.occ)/(float64(a.n)+1e-10) < float64(b.occ)/(float64(b.n)+1e-10)
}

// splitQueue is std::priority_queue<CountStats> as libstdc++ keeps it
// (push_heap and pop_heap on a vector). Occupancies are frame counts under
// Viterbi training, so pdfs often tie on occ/n, and which of them gets the
// last Gaussian of a round is decided by the heap's layout: only the same
// sift-up and sift-down give Kaldi's targets.
type splitQueue []splitCount

// push is std::push_heap after push_back (__push_heap).
func (q *splitQueue) push(v splitCount) {
	*q = append(*q, v)
	h := *q
	q.siftUp(len(h)-1, 0, v)
}

func (q splitQueue) siftUp(hole, top int, v splitCount) {
	parent := (hole - 1) / 2
	for hole > top && q[parent].less(v) {
		q[hole] = q[parent]
		hole = parent
		parent = (hole - 1) / 2
	}
	q[hole] = v
}

// pop is std::pop_heap then pop_back: the last element is sifted from the
// root down to a leaf along the larger children (__adjust_heap), then up.
func (q *splitQueue) pop() splitCount {
	h := *q
	top := h[0]
	last := len(h) - 1
	if last > 0 {
		v := h[last]
		h[last] = top
		hole, child, n := 0, 0, last
		for child < (n-1)/2 {
			child = 2 * (child + 1)
			if h[child].less(h[child-1]) {
				child--
			}
			h[hole] = h[child]
			hole = child
		}
		if n&1 == 0 && child == (n-2)/2 {
			child = 2 * (child + 1)
			h[hole] = h[child-1]
			hole = child - 1
		}
		h.siftUp(hole, 0, v)
	}
	*q = h[:last]
	return top
}

// SplitTargets is Kaldi's AmDiagGmm::ComputeTargetNumPdfs (gmm-est
// --mix-up): the number of Gaussians of each pdf when target Gaussians are
// shared out in proportion to occ^power, at least one per pdf, and no pdf
// gets more than occ/minCount. As in Kaldi (src/gmm/am-diag-gmm.cc), every
// round counts against the target, also one in which min-count refused the
// pdf on top (unlike GetSplitTargets in model-common.cc, which counts only
// the Gaussians given). It returns false when every pdf was refused before
// the target was reached.
func SplitTargets(occs []float64, target int, power, minCount float64) ([]int, bool) {
	q := make(splitQueue, 0, len(occs))
	for i, o := range occs {
		// pow(BaseFloat, BaseFloat): the float overload.
		q.push(splitCount{pdf: i, n: 1, occ: float32(math.Pow(float64(float32(o)), float64(float32(power))))})
	}
	full := true
	for num := len(occs); num < target; num++ {
		if q[0].occ == 0 {
			full = false
			break
		}
		top := q.pop()
		if float32(top.n+1)*float32(minCount) >= float32(occs[top.pdf]) {
			top.occ = 0
		} else {
			top.n++
		}
		q.push(top)
	}
	targets := make([]int, len(occs))
	for _, c := range q {
		targets[c.pdf] = c.n
	}
	return targets, full
}

// Split is Kaldi's DiagGmm::Split: until the mixture has target Gaussians,
// the heaviest is halved into two whose means move ±perturb standard
// deviations along a random direction (the draws from rng, as Kaldi's
// RandGauss).
func (g *DiagGmm) Split(target int, perturb float64, rng *glibcrand.Rand) {
	cur, dim := g.NumGauss(), g.Dim
	if target <= cur {
		return
	}
	g.Weights = append(g.Weights, make([]float32, target-cur)...)
	g.MeansInvVars = append(g.MeansInvVars, make([]float32, (target-cur)*dim)...)
	g.InvVars = append(g.InvVars, make([]float32, (target-cur)*dim)...)
	rv := make([]float32, dim)
	for ; cur < target; cur++ {
		best := 0
		for i := 1; i < cur; i++ {
			if g.Weights[i] > g.Weights[best] {
				best = i
			}
		}
		g.Weights[best] /= 2
		g.Weights[cur] = g.Weights[best]
		for d := range rv {
			// means_invvars have the dimension of an inverse standard
			// deviation, so the noise is scaled by sqrt(1/σ²).
			rv[d] = rng.RandGauss() * float32(math.Sqrt(float64(g.InvVars[best*dim+d])))
		}
		copy(g.InvVars[cur*dim:(cur+1)*dim], g.InvVars[best*dim:(best+1)*dim])
		nm, om := g.MeansInvVars[cur*dim:(cur+1)*dim], g.MeansInvVars[best*dim:(best+1)*dim]
		copy(nm, om)
		p := float32(perturb)
		for d, r := range rv {
			nm[d] += p * r
			om[d] -= p * r
		}
	}
	g.ComputeGconsts()
}

// SplitByCount is Kaldi's AmDiagGmm::SplitByCount (gmm-est --mix-up): each
// pdf is split up to its SplitTargets share of opt.MixUp Gaussians. It
// returns the number of Gaussians before and after, and whether min-count
// held the total below the target.
func (am *AmDiagGmm) SplitByCount(occs []float64, opt MixUpOptions, rng *glibcrand.Rand) (before, after int, short bool) {
	before = am.NumGauss()
	targets, full := SplitTargets(occs, opt.MixUp, opt.Power, opt.MinCount)
	for i := range am.Pdfs {
		if am.Pdfs[i].NumGauss() < targets[i] {
			am.Pdfs[i].Split(targets[i], opt.PerturbFactor, rng)
		}
	}
	return before, am.NumGauss(), !full
}

// InitMono is gmm-init-mono's model: every pdf one Gaussian with the global
// mean and variance (zero and one when mean is nil).
func InitMono(numPdfs, dim int, mean, variance []float64) AmDiagGmm {
	am := AmDiagGmm{Dim: dim}
	for i := 0; i < numPdfs; i++ {
		g := DiagGmm{Dim: dim, Weights: []float32{1}, MeansInvVars: make([]float32, dim), InvVars: make([]float32, dim)}
		for d := 0; d < dim; d++ {
			iv := float32(1)
			var m float32
			if mean != nil {
				iv = float32(1 / variance[d])
				m = float32(mean[d])
			}
			g.InvVars[d] = iv
			g.MeansInvVars[d] = m * iv
		}
		g.ComputeGconsts()
		am.Pdfs = append(am.Pdfs, g)
	}
	return am
}
