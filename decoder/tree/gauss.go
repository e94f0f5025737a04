package tree

import (
	"math"
)

// log2Pi is Kaldi's M_LOG_2PI.
const log2Pi = 1.8378770664093454835606594728112

// GaussClusterable is Kaldi's GaussClusterable: the single-Gaussian
// statistics (count, Σx, Σx² per dimension, in double) of the frames of one
// phone context, with the variance floor used when its likelihood is
// evaluated. Tree building clusters these.
//
// The arithmetic follows Kaldi's types: the statistics are double, while
// every objective function, normalizer and distance is a float (Kaldi's
// BaseFloat), rounded where Kaldi rounds, so that ties and thresholds fall
// the same way.
type GaussClusterable struct {
	Count    float64
	VarFloor float64
	X        []float64 // Σ weight·x
	X2       []float64 // Σ weight·x²
}

// NewGaussClusterable returns empty statistics of dimension dim (Kaldi's
// GaussClusterable(dim, var_floor): the floor is a float widened to double).
func NewGaussClusterable(dim int, varFloor float32) *GaussClusterable {
	return &GaussClusterable{VarFloor: float64(varFloor), X: make([]float64, dim), X2: make([]float64, dim)}
}

// Dim is the feature dimension.
func (g *GaussClusterable) Dim() int { return len(g.X) }

// AddStats adds one frame with a weight (Kaldi's AddStats: x and x² added
// in double).
func (g *GaussClusterable) AddStats(x []float32, weight float32) {
	w := float64(weight)
	g.Count += w
	for d, v := range x {
		f := float64(v)
		g.X[d] += w * f
		g.X2[d] += w * f * f
	}
}

// Add adds other's statistics (dimensions must agree).
func (g *GaussClusterable) Add(other *GaussClusterable) {
	g.Count += other.Count
	for d := range g.X {
		g.X[d] += other.X[d]
		g.X2[d] += other.X2[d]
	}
}

// Sub subtracts other's statistics.
func (g *GaussClusterable) Sub(other *GaussClusterable) {
	g.Count -= other.Count
	for d := range g.X {
		g.X[d] -= other.X[d]
		g.X2[d] -= other.X2[d]
	}
}

// Copy returns a deep copy (Kaldi's Copy: a zero object plus this one).
func (g *GaussClusterable) Copy() *GaussClusterable {
	c := &GaussClusterable{VarFloor: g.VarFloor, X: make([]float64, len(g.X)), X2: make([]float64, len(g.X2))}
	c.Add(g)
	return c
}

// SetZero clears the statistics, keeping the dimension and floor.
func (g *GaussClusterable) SetZero() {
	g.Count = 0
	clear(g.X)
	clear(g.X2)
}

// Normalizer is the count as a float (Kaldi's Normalizer).
func (g *GaussClusterable) Normalizer() float32 { return float32(g.Count) }

// Objf is the log-likelihood of the frames under the maximum-likelihood
// diagonal Gaussian with floored variances (Kaldi's GaussClusterable::Objf):
// count · (−½ Σ_d var_d/floored_d − ½ (Σ_d log floored_d + D log 2π)). It is 0
// for a non-positive count or a NaN result, as in Kaldi.
func (g *GaussClusterable) Objf() float32 {
	return objfOf(g.Count, g.VarFloor, g.X, g.X2, nil, 0)
}

// objfOf is Objf of the statistics (count, x, x2) plus sign·other (other
// may be nil), computed without allocating a copy: the sums are formed in
// double exactly as Copy followed by Add or Sub forms them.
func objfOf(count, varFloor float64, x, x2 []float64, other *GaussClusterable, sign float64) float32 {
	if other != nil {
		if sign > 0 {
			count += other.Count
		} else {
			count -= other.Count
		}
	}
	if count <= 0 {
		return 0
	}
	perFrame := 0.0
	// Kaldi's VectorBase<double>::SumLog: the product of the floored
	// variances, taking its log whenever it leaves [1e-10, 1e10].
	sumLog, prod := 0.0, 1.0
	for d := range x {
		sx, sx2 := x[d], x2[d]
		if other != nil {
			if sign > 0 {
				sx, sx2 = (0+sx)+other.X[d], (0+sx2)+other.X2[d]
			} else {
				sx, sx2 = (0+sx)-other.X[d], (0+sx2)-other.X2[d]
			}
		}
		mean := sx / count
		v := sx2/count - mean*mean
		fv := v
		if v < varFloor {
			fv = varFloor
		}
		perFrame += -0.5 * v / fv
		prod *= fv
		if prod < 1.0e-10 || prod > 1.0e+10 {
			sumLog += math.Log(prod)
			prod = 1
		}
	}
	if prod != 1 {
		sumLog += math.Log(prod)
	}
	perFrame += -0.5 * (sumLog + log2Pi*float64(len(x)))
	if math.IsNaN(perFrame) {
		return 0
	}
	return float32(perFrame * count)
}

// ObjfPlus is Objf of this plus other (Kaldi's Clusterable::ObjfPlus).
func (g *GaussClusterable) ObjfPlus(other *GaussClusterable) float32 {
	return objfOf(g.Count, g.VarFloor, g.X, g.X2, other, 1)
}

// ObjfMinus is Objf of this minus other.
func (g *GaussClusterable) ObjfMinus(other *GaussClusterable) float32 {
	return objfOf(g.Count, g.VarFloor, g.X, g.X2, other, -1)
}

// Distance is the log-likelihood lost by merging this and other, never
// negative (Kaldi's Clusterable::Distance, in float).
func (g *GaussClusterable) Distance(other *GaussClusterable) float32 {
	ans := g.Objf() + other.Objf() - g.ObjfPlus(other)
	if ans < 0 {
		ans = 0
	}
	return ans
}
