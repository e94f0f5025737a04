package gmm

import (
	"container/heap"
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

type splitCount struct {
	pdf, n int
	occ    float64 // occupancy^power; 0 once the pdf may not split further
}

type splitQueue []splitCount

func (q splitQueue) Len() int { return len(q) }
func (q splitQueue) Less(i, j int) bool {
	// Kaldi's CountStats::operator<, reversed for a max-heap.
	return q[i].occ/(float64(q[i].n)+1e-10) > q[j].occ/(float64(q[j].n)+1e-10)
}
func (q splitQueue) Swap(i, j int) { q[i], q[j] = q[j], q[i] }
func (q *splitQueue) Push(x any)   { *q = append(*q, x.(splitCount)) }
func (q *splitQueue) Pop() any {
	old := *q
	x := old[len(old)-1]
	*q = old[:len(old)-1]
	return x
}

// SplitTargets is Kaldi's GetSplitTargets: the number of Gaussians of each
// pdf when target Gaussians are shared out in proportion to occ^power, at
// least one per pdf, and no pdf gets more than occ/minCount. It returns
// false when minCount stopped the allocation short of target.
func SplitTargets(occs []float64, target int, power, minCount float64) ([]int, bool) {
	q := make(splitQueue, len(occs))
	for i, o := range occs {
		q[i] = splitCount{pdf: i, n: 1, occ: math.Pow(float64(float32(o)), power)}
	}
	heap.Init(&q)
	full := true
	for num := len(occs); num < target; {
		top := q[0]
		if top.occ == 0 {
			full = false
			break
		}
		if float64(top.n+1)*minCount >= float64(float32(occs[top.pdf])) {
			top.occ = 0
		} else {
			top.n++
			num++
		}
		q[0] = top
		heap.Fix(&q, 0)
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
