package gmm

import (
	"fmt"
	"math"
	"slices"
)

// Update flags, Kaldi's GmmFlagsType: which parameters an accumulator holds
// statistics for and which an update changes.
const (
	FlagMeans       uint16 = 0x001
	FlagVariances   uint16 = 0x002
	FlagWeights     uint16 = 0x004
	FlagTransitions uint16 = 0x008
	FlagAll         uint16 = 0x00F
)

// ParseFlags reads Kaldi's flag strings ("mvwt", "a" for all).
func ParseFlags(s string) (uint16, error) {
	var f uint16
	for _, c := range s {
		switch c {
		case 'm':
			f |= FlagMeans
		case 'v':
			f |= FlagVariances
		case 'w':
			f |= FlagWeights
		case 't':
			f |= FlagTransitions
		case 'a':
			f |= FlagAll
		default:
			return 0, fmt.Errorf("invalid element %q of GmmFlagsType option string %q", c, s)
		}
	}
	return f, nil
}

// augmentFlags is Kaldi's AccumDiagGmm::AugmentFlags: variance statistics
// need the means', means' need the occupancies.
func augmentFlags(f uint16) uint16 {
	if f&FlagVariances != 0 {
		f |= FlagMeans
	}
	if f&FlagMeans != 0 {
		f |= FlagWeights
	}
	return f
}

// AccumDiagGmm holds the maximum-likelihood statistics of one DiagGmm
// (Kaldi's AccumDiagGmm): per Gaussian the occupancy γ, Σγx and Σγx², in
// double as Kaldi accumulates them.
type AccumDiagGmm struct {
	Dim, NumGauss int
	Flags         uint16
	Occupancy     []float64
	MeanAcc       []float64 // NumGauss × Dim
	VarAcc        []float64 // NumGauss × Dim
}

// NewAccumDiagGmm is an empty accumulator for numGauss Gaussians of
// dimension dim (flags are augmented as Kaldi's Resize does).
func NewAccumDiagGmm(numGauss, dim int, flags uint16) AccumDiagGmm {
	a := AccumDiagGmm{Dim: dim, NumGauss: numGauss, Flags: augmentFlags(flags), Occupancy: make([]float64, numGauss)}
	if a.Flags&FlagMeans != 0 {
		a.MeanAcc = make([]float64, numGauss*dim)
	}
	if a.Flags&FlagVariances != 0 {
		a.VarAcc = make([]float64, numGauss*dim)
	}
	return a
}

// AccumulateFromPosteriors adds frame x with per-Gaussian posteriors post.
func (a *AccumDiagGmm) AccumulateFromPosteriors(x []float32, post []float32) {
	for g, p := range post {
		if p == 0 {
			continue
		}
		w := float64(p)
		a.Occupancy[g] += w
		if a.MeanAcc == nil {
			continue
		}
		m := a.MeanAcc[g*a.Dim : (g+1)*a.Dim]
		var v []float64
		if a.VarAcc != nil {
			v = a.VarAcc[g*a.Dim : (g+1)*a.Dim]
		}
		for d, xv := range x[:a.Dim] {
			xd := float64(xv)
			m[d] += w * xd
			if v != nil {
				v[d] += w * xd * xd
			}
		}
	}
}

// Add adds scale times other (same shape).
func (a *AccumDiagGmm) Add(scale float64, o *AccumDiagGmm) error {
	if a.Dim != o.Dim || a.NumGauss != o.NumGauss || a.Flags != o.Flags {
		return fmt.Errorf("accumulators do not match: %d Gaussians of dimension %d, flags %d vs %d, %d, %d",
			a.NumGauss, a.Dim, a.Flags, o.NumGauss, o.Dim, o.Flags)
	}
	for i, v := range o.Occupancy {
		a.Occupancy[i] += scale * v
	}
	for i, v := range o.MeanAcc {
		a.MeanAcc[i] += scale * v
	}
	for i, v := range o.VarAcc {
		a.VarAcc[i] += scale * v
	}
	return nil
}

// ComponentPosteriors writes the posteriors of g's Gaussians for x into
// post (length NumGauss) and returns the log-likelihood, as Kaldi's
// DiagGmm::ComponentPosteriors (a float softmax).
func (g *DiagGmm) ComponentPosteriors(x []float32, post []float32) float32 {
	g.LogLikelihoods(x, post)
	maxv := float32(math.Inf(-1))
	for _, v := range post {
		maxv = max(maxv, v)
	}
	var sum float32
	for i, v := range post {
		e := expf(v - maxv)
		post[i] = e
		sum += e
	}
	// ApplySoftMax: Scale(1.0 / sum), the reciprocal in double narrowed
	// to float (Kaldi's src/matrix/kaldi-vector.cc).
	inv := float32(1.0 / float64(sum))
	for i := range post {
		post[i] *= inv
	}
	return maxv + logf(sum)
}

// AccumAmDiagGmm holds an AccumDiagGmm per pdf and the total log-likelihood
// and frame count of what was accumulated (Kaldi's AccumAmDiagGmm).
type AccumAmDiagGmm struct {
	Accs        []AccumDiagGmm
	TotLogLike  float64
	TotFrames   float64
	posteriorsG []float32
}

// NewAccumAmDiagGmm is an empty accumulator shaped as am.
func NewAccumAmDiagGmm(am *AmDiagGmm, flags uint16) *AccumAmDiagGmm {
	a := &AccumAmDiagGmm{Accs: make([]AccumDiagGmm, am.NumPdfs())}
	for i := range am.Pdfs {
		a.Accs[i] = NewAccumDiagGmm(am.Pdfs[i].NumGauss(), am.Dim, flags)
	}
	return a
}

// AccumulateForGmm adds frame x to pdf's statistics with weight (its
// Gaussians sharing it by their posteriors) and returns the frame's
// log-likelihood under the pdf.
func (a *AccumAmDiagGmm) AccumulateForGmm(am *AmDiagGmm, x []float32, pdf int, weight float32) float32 {
	g := &am.Pdfs[pdf]
	n := g.NumGauss()
	if cap(a.posteriorsG) < n {
		a.posteriorsG = make([]float32, n)
	}
	post := a.posteriorsG[:n]
	ll := g.ComponentPosteriors(x, post)
	if weight != 1 {
		for i := range post {
			post[i] *= weight
		}
	}
	a.Accs[pdf].AccumulateFromPosteriors(x, post)
	a.TotLogLike += float64(ll) * float64(weight)
	a.TotFrames += float64(weight)
	return ll
}

// Add adds scale times other (same shape), as gmm-sum-accs.
func (a *AccumAmDiagGmm) Add(scale float64, o *AccumAmDiagGmm) error {
	if len(a.Accs) != len(o.Accs) {
		return fmt.Errorf("adding accumulators but num-pdfs do not match: %d vs. %d", len(a.Accs), len(o.Accs))
	}
	for i := range a.Accs {
		if err := a.Accs[i].Add(scale, &o.Accs[i]); err != nil {
			return fmt.Errorf("pdf %d: %w", i, err)
		}
	}
	a.TotLogLike += scale * o.TotLogLike
	a.TotFrames += scale * o.TotFrames
	return nil
}

// TotStatsCount is the total occupancy over all pdfs.
func (a *AccumAmDiagGmm) TotStatsCount() float64 {
	s := 0.0
	for i := range a.Accs {
		for _, v := range a.Accs[i].Occupancy {
			s += v
		}
	}
	return s
}

// MleDiagGmmOptions are Kaldi's MleDiagGmmOptions (gmm-est's options of the
// Gaussian update), with Kaldi's defaults from DefaultMleDiagGmmOptions.
type MleDiagGmmOptions struct {
	MinGaussianWeight       float64 // --min-gaussian-weight [1e-5]
	MinGaussianOccupancy    float64 // --min-gaussian-occupancy [10]
	MinVariance             float64 // --min-variance [0.001]
	RemoveLowCountGaussians bool    // --remove-low-count-gaussians [true]
}

// DefaultMleDiagGmmOptions are Kaldi's defaults.
func DefaultMleDiagGmmOptions() MleDiagGmmOptions {
	return MleDiagGmmOptions{MinGaussianWeight: 1e-5, MinGaussianOccupancy: 10, MinVariance: 0.001, RemoveLowCountGaussians: true}
}

// MleObjective is Kaldi's MlObjective: the auxiliary function of the
// statistics under g, Σ_g γ_g·gconst_g + Σ μ/σ²·Σγx − ½ Σ 1/σ²·Σγx².
func MleObjective(g *DiagGmm, a *AccumDiagGmm) float64 {
	obj := 0.0
	for i := 0; i < a.NumGauss; i++ {
		obj += float64(float32(a.Occupancy[i])) * float64(g.Gconsts[i])
	}
	if a.MeanAcc != nil {
		for i, v := range a.MeanAcc {
			obj += float64(float32(v)) * float64(g.MeansInvVars[i])
		}
	}
	if a.VarAcc != nil {
		for i, v := range a.VarAcc {
			obj -= 0.5 * float64(float32(v)) * float64(g.InvVars[i])
		}
	}
	return obj
}

// UpdateResult is what one update reports: the change of the objective,
// the count it was estimated on, Gaussians removed and variances floored.
type UpdateResult struct {
	ObjChange, Count float64
	Removed          int
	Floored          int // variances floored (elements)
	FlooredGauss     int // Gaussians with a floored variance
	Warnings         []string
}

func (r *UpdateResult) add(o UpdateResult) {
	r.ObjChange += o.ObjChange
	r.Count += o.Count
	r.Removed += o.Removed
	r.Floored += o.Floored
	r.FlooredGauss += o.FlooredGauss
	r.Warnings = append(r.Warnings, o.Warnings...)
}

// MleDiagGmmUpdate is Kaldi's MleDiagGmmUpdate: the maximum-likelihood
// weights, means and variances (those in flags) of g from a, each Gaussian
// with at least MinGaussianOccupancy frames and MinGaussianWeight of the
// pdf's occupancy; variances floored at MinVariance; the Gaussians below
// either limit removed (never the last) and the weights renormalised.
func MleDiagGmmUpdate(opt MleDiagGmmOptions, a *AccumDiagGmm, flags uint16, g *DiagGmm) (UpdateResult, error) {
	var res UpdateResult
	if flags&^a.Flags != 0 {
		return res, fmt.Errorf("flags in argument do not match the active accumulators")
	}
	if a.NumGauss != g.NumGauss() || a.Dim != g.Dim {
		return res, fmt.Errorf("accumulator has %d Gaussians of dimension %d, the model %d of %d", a.NumGauss, a.Dim, g.NumGauss(), g.Dim)
	}
	dim := g.Dim
	occSum := 0.0
	for _, v := range a.Occupancy {
		occSum += v
	}
	if _, err := g.ComputeGconsts(); err != nil {
		return res, err
	}
	objOld := MleObjective(g, a)
	// The "normal" parameters in double, as Kaldi's DiagGmmNormal.
	weights := make([]float64, a.NumGauss)
	means := make([]float64, a.NumGauss*dim)
	vars := make([]float64, a.NumGauss*dim)
	for i := 0; i < a.NumGauss; i++ {
		weights[i] = float64(g.Weights[i])
		for d := 0; d < dim; d++ {
			// DiagGmmNormal::CopyFromDiagGmm: the inverse in double, then
			// the mean as a product with it.
			v := 1 / float64(g.InvVars[i*dim+d])
			vars[i*dim+d] = v
			means[i*dim+d] = float64(g.MeansInvVars[i*dim+d]) * v
		}
	}
	var removed []int
	for i := 0; i < a.NumGauss; i++ {
		occ := a.Occupancy[i]
		prob := 1.0 / float64(a.NumGauss)
		if occSum != 0 {
			prob = occ / occSum
		}
		if occ > opt.MinGaussianOccupancy && prob > opt.MinGaussianWeight {
			if flags&FlagWeights != 0 {
				weights[i] = prob
			}
			if flags&FlagMeans == 0 && flags&FlagVariances == 0 {
				continue
			}
			mean := make([]float64, dim)
			for d := range mean {
				mean[d] = a.MeanAcc[i*dim+d] / occ
			}
			if flags&FlagVariances != 0 {
				floored := 0
				for d := 0; d < dim; d++ {
					v := a.VarAcc[i*dim+d]/occ - mean[d]*mean[d]
					if flags&FlagMeans == 0 {
						diff := means[i*dim+d] - mean[d]
						v += diff * diff
					}
					if v < opt.MinVariance {
						v = opt.MinVariance
						floored++
					}
					vars[i*dim+d] = v
				}
				if floored > 0 {
					res.Floored += floored
					res.FlooredGauss++
				}
			}
			if flags&FlagMeans != 0 {
				copy(means[i*dim:(i+1)*dim], mean)
			}
			continue
		}
		if opt.RemoveLowCountGaussians && len(removed) < a.NumGauss-1 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("Too little data - removing Gaussian (weight %f, occupation count %f, vector size %d)", prob, occ, dim))
			removed = append(removed, i)
			continue
		}
		res.Warnings = append(res.Warnings, fmt.Sprintf("Gaussian has too little data but not removing it: g = %d, occ = %g, weight = %g", i, occ, prob))
		if flags&FlagWeights != 0 {
			weights[i] = max(prob, opt.MinGaussianWeight)
		}
	}
	for i := 0; i < a.NumGauss; i++ {
		g.Weights[i] = float32(weights[i])
		for d := 0; d < dim; d++ {
			// DiagGmmNormal::CopyToDiagGmm: the variance narrowed to
			// float, then inverted in float (InvertElements).
			iv := 1 / float32(vars[i*dim+d])
			g.InvVars[i*dim+d] = iv
			g.MeansInvVars[i*dim+d] = float32(means[i*dim+d]) * iv
		}
	}
	if _, err := g.ComputeGconsts(); err != nil {
		return res, err
	}
	res.ObjChange = MleObjective(g, a) - objOld
	res.Count = occSum
	if len(removed) > 0 {
		g.RemoveComponents(removed)
		res.Removed = len(removed)
	}
	if _, err := g.ComputeGconsts(); err != nil {
		return res, err
	}
	return res, nil
}

// MleAmDiagGmmUpdate updates every pdf of am from its statistics.
func MleAmDiagGmmUpdate(opt MleDiagGmmOptions, a *AccumAmDiagGmm, flags uint16, am *AmDiagGmm) (UpdateResult, error) {
	var res UpdateResult
	if len(a.Accs) != am.NumPdfs() {
		return res, fmt.Errorf("accumulators have %d pdfs, the model %d", len(a.Accs), am.NumPdfs())
	}
	for i := range am.Pdfs {
		r, err := MleDiagGmmUpdate(opt, &a.Accs[i], flags, &am.Pdfs[i])
		if err != nil {
			return res, fmt.Errorf("pdf %d: %w", i, err)
		}
		res.add(r)
	}
	return res, nil
}

// RemoveComponents deletes the Gaussians listed and renormalises the
// weights as Kaldi's DiagGmm::RemoveComponents with renorm_weights: one
// Gaussian at a time, each time scaling the weights by the float
// reciprocal of their sum; the caller recomputes the constants.
func (g *DiagGmm) RemoveComponents(gauss []int) {
	drop := slices.Clone(gauss)
	slices.Sort(drop)
	drop = slices.Compact(drop)
	dim := g.Dim
	for k, i := range drop {
		i -= k // the earlier removals moved it down
		g.Weights = slices.Delete(g.Weights, i, i+1)
		g.MeansInvVars = slices.Delete(g.MeansInvVars, i*dim, (i+1)*dim)
		g.InvVars = slices.Delete(g.InvVars, i*dim, (i+1)*dim)
		var sum float32
		for _, v := range g.Weights {
			sum += v
		}
		scale := float32(1.0 / float64(sum))
		for j := range g.Weights {
			g.Weights[j] *= scale
		}
	}
	g.Gconsts = slices.Grow(g.Gconsts[:0], len(g.Weights))[:len(g.Weights)]
}
