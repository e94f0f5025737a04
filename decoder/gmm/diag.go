package gmm

import (
	"fmt"
	"math"
)

// DiagGmm is one mixture of diagonal-covariance Gaussians in Kaldi's
// natural-parameter layout: for Gaussian g, MeansInvVars holds μ_g/σ²_g and
// InvVars 1/σ²_g (NumGauss × Dim, row-major), and Gconsts the log-likelihood
// at x = 0,
//
//	gconst_g = log w_g − ½·D·log 2π + ½·Σ_d (log(1/σ²_gd) − μ²_gd/σ²_gd),
//
// so that log w_g·N(x; μ_g, σ²_g) = gconst_g + (μ_g/σ²_g)·x − ½·(1/σ²_g)·x².
type DiagGmm struct {
	Dim          int
	Gconsts      []float32
	Weights      []float32
	MeansInvVars []float32
	InvVars      []float32
}

// NumGauss is the number of Gaussians in the mixture.
func (g *DiagGmm) NumGauss() int { return len(g.Weights) }

// ComputeGconsts recomputes Gconsts from the weights, means and variances,
// with Kaldi's arithmetic (DiagGmm::ComputeGconsts): a float accumulator,
// each dimension's term formed in double. It returns how many constants are
// infinite (a zero weight or variance), which are set to −∞ as Kaldi does; a
// NaN is an error.
func (g *DiagGmm) ComputeGconsts() (bad int, err error) {
	n, dim := g.NumGauss(), g.Dim
	if len(g.Gconsts) != n {
		g.Gconsts = make([]float32, n)
	}
	offset := float32(-0.5 * math.Log(2*math.Pi) * float64(dim))
	for mix := 0; mix < n; mix++ {
		w := g.Weights[mix]
		if w < 0 {
			return bad, fmt.Errorf("gmm: Gaussian %d has negative weight %g", mix, w)
		}
		gc := logf(w) + offset
		miv := g.MeansInvVars[mix*dim : (mix+1)*dim]
		iv := g.InvVars[mix*dim : (mix+1)*dim]
		for d := range dim {
			m, v := float64(miv[d]), float64(iv[d])
			gc = float32(float64(gc) + (0.5*float64(logf(iv[d])) - 0.5*m*m/v))
		}
		switch {
		case math.IsNaN(float64(gc)):
			return bad, fmt.Errorf("gmm: at component %d, not a number in gconst computation", mix)
		case math.IsInf(float64(gc), 0):
			bad++
			gc = float32(math.Inf(-1))
		}
		g.Gconsts[mix] = gc
	}
	return bad, nil
}

// LogLikelihoods writes each Gaussian's weighted log-likelihood of x into
// out (length NumGauss).
func (g *DiagGmm) LogLikelihoods(x []float32, out []float32) {
	dim := g.Dim
	for mix := range out {
		miv := g.MeansInvVars[mix*dim : (mix+1)*dim]
		iv := g.InvVars[mix*dim : (mix+1)*dim]
		// Kaldi adds the two matrix-vector products to the constants one
		// after the other (two BLAS sgemv calls); float sums in the same
		// grouping.
		var lin, quad float32
		for d, v := range x[:dim] {
			lin += miv[d] * v
			quad += iv[d] * (v * v)
		}
		out[mix] = g.Gconsts[mix] + lin + -0.5*quad
	}
}

// LogLikelihood is the log-likelihood of x under the mixture: the
// log-sum-exp of LogLikelihoods, with Kaldi's pruning of terms more than
// log(FLT_EPSILON) below the largest and a double accumulator
// (VectorBase::LogSumExp). scratch, if it has room for NumGauss values, is
// used instead of allocating.
func (g *DiagGmm) LogLikelihood(x []float32, scratch []float32) float32 {
	n := g.NumGauss()
	if cap(scratch) < n {
		scratch = make([]float32, n)
	}
	ll := scratch[:n]
	g.LogLikelihoods(x, ll)
	return logSumExp(ll)
}

// minLogDiffFloat is log(FLT_EPSILON), Kaldi's kMinLogDiffFloat.
var minLogDiffFloat = float32(math.Log(float64(math.Nextafter32(1, 2) - 1)))

func logSumExp(v []float32) float32 {
	maxv := float32(math.Inf(-1))
	for _, f := range v {
		maxv = max(maxv, f)
	}
	if math.IsInf(float64(maxv), -1) {
		return maxv
	}
	cutoff := maxv + minLogDiffFloat
	sum := 0.0
	for _, f := range v {
		if f >= cutoff {
			sum += float64(expf(f - maxv))
		}
	}
	return float32(float64(maxv) + math.Log(sum))
}

// logf and expf are float logarithm and exponential (C's logf/expf, which
// Kaldi's Log/Exp call for floats): correctly rounded double results rounded
// to float.
func logf(x float32) float32 { return float32(math.Log(float64(x))) }
func expf(x float32) float32 { return float32(math.Exp(float64(x))) }
