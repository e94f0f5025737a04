package transform

import (
	"flag"
	"fmt"
	"math"
	"slices"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/kaldiio"
)

// FmllrOptions are Kaldi's FmllrOptions (gmm-est-fmllr's --fmllr-*).
type FmllrOptions struct {
	UpdateType string
	MinCount   float64
	NumIters   int
}

// DefaultFmllrOptions are Kaldi's defaults: a full update, 500 frames at
// least, 40 passes over the rows.
func DefaultFmllrOptions() FmllrOptions {
	return FmllrOptions{UpdateType: "full", MinCount: 500, NumIters: 40}
}

// Register adds the options to fs, with Kaldi's names.
func (o *FmllrOptions) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.UpdateType, "fmllr-update-type", o.UpdateType, `Update type for fMLLR ("full"|"diag"|"offset"|"none")`)
	fs.Float64Var(&o.MinCount, "fmllr-min-count", o.MinCount, "Minimum count required to update fMLLR")
	fs.IntVar(&o.NumIters, "fmllr-num-iters", o.NumIters, "Number of iterations in fMLLR update phase.")
}

// Check rejects an unknown update type before any data is read.
func (o *FmllrOptions) Check() error {
	switch o.UpdateType {
	case "full", "diag", "offset", "none":
		return nil
	}
	return fmt.Errorf(`Unknown fMLLR update type %s, fmllr-update-type must be one of "full"|"diag"|"offset"|"none"`, o.UpdateType)
}

// FmllrAccs are the statistics of a global fMLLR transform W = [A | b] of
// dimension d (Kaldi's AffineXformStats as FmllrDiagGmmAccs fills them),
// with x⁺ = [x; 1]:
//
//	β = Σ γ,   K = Σ_t Σ_m γ_m(t)·(μ_m/σ²_m)·x⁺ᵀ (d × d+1),
//	G_i = Σ_t Σ_m γ_m(t)/σ²_{m,i} · x⁺·x⁺ᵀ  (d+1 × d+1, one per row i).
//
// Kaldi sums the per-Gaussian terms of one frame first (a float a and b
// vector, "single-frame stats") and commits them when the frame changes;
// we do the same, so frames with several pdfs cost one outer product.
// Kaldi fills only the elements of G a diag or offset update reads when the
// update is not full; we always fill all of G (the same transforms).
type FmllrAccs struct {
	Dim  int
	Beta float64
	K    []float64 // Dim × Dim+1
	G    []SpMatrix

	x, a, b []float32
	count   float64
	have    bool
}

// NewFmllrAccs is zero statistics of dimension dim.
func NewFmllrAccs(dim int) *FmllrAccs {
	f := &FmllrAccs{Dim: dim, K: make([]float64, dim*(dim+1)), G: make([]SpMatrix, dim),
		x: make([]float32, dim), a: make([]float32, dim), b: make([]float32, dim)}
	for i := range f.G {
		f.G[i] = NewSpMatrix(dim + 1)
	}
	return f
}

// AccumulateForGmm adds frame x under g with weight w (the Gaussian
// posteriors from g, scaled by w) and returns x's log-likelihood under g.
func (f *FmllrAccs) AccumulateForGmm(g *gmm.DiagGmm, x []float32, w float32) float32 {
	post := make([]float32, g.NumGauss())
	ll := g.ComponentPosteriors(x, post)
	for i := range post {
		post[i] *= w
	}
	f.AccumulateFromPosteriors(g, x, post)
	return ll
}

// AccumulateFromPosteriors adds frame x under g with the given Gaussian
// posteriors (FmllrDiagGmmAccs::AccumulateFromPosteriors).
func (f *FmllrAccs) AccumulateFromPosteriors(g *gmm.DiagGmm, x []float32, post []float32) {
	if !f.have || !slices.Equal(f.x, x[:f.Dim]) {
		f.commit()
		copy(f.x, x)
		f.have = true
	}
	dim := f.Dim
	for m, p := range post {
		f.count += float64(p)
		if p == 0 {
			continue
		}
		miv := g.MeansInvVars[m*dim : (m+1)*dim]
		iv := g.InvVars[m*dim : (m+1)*dim]
		for d := 0; d < dim; d++ {
			f.a[d] += p * miv[d]
			f.b[d] += p * iv[d]
		}
	}
}

// commit moves the current frame's sums into β, K and G
// (FmllrDiagGmmAccs::CommitSingleFrameStats).
func (f *FmllrAccs) commit() {
	if f.count == 0 {
		return
	}
	dim := f.Dim
	xp := make([]float64, dim+1)
	for i, v := range f.x {
		xp[i] = float64(v)
	}
	xp[dim] = 1
	f.Beta += f.count
	for i := 0; i < dim; i++ {
		ai := float64(f.a[i])
		for j, v := range xp {
			f.K[i*(dim+1)+j] += ai * v
		}
	}
	scatter := NewSpMatrix(dim + 1)
	scatter.AddVec2(1, xp)
	for i := 0; i < dim; i++ {
		f.G[i].AddSp(float64(f.b[i]), &scatter)
	}
	f.count = 0
	clear(f.a)
	clear(f.b)
}

// FmllrAuxf is the fMLLR auxiliary function of W (d × d+1, row-major)
// (FmllrAuxFuncDiagGmm): β·log|det A| + tr(W·Kᵀ) − ½·Σ_i w_iᵀ·G_i·w_i.
func (f *FmllrAccs) FmllrAuxf(w []float64) float64 {
	dim := f.Dim
	a := make([]float64, dim*dim)
	for i := 0; i < dim; i++ {
		copy(a[i*dim:(i+1)*dim], w[i*(dim+1):i*(dim+1)+dim])
	}
	obj := f.Beta*logDetDense(dim, a) + dot(w, f.K)
	for i := 0; i < dim; i++ {
		row := w[i*(dim+1) : (i+1)*(dim+1)]
		obj -= 0.5 * dot(row, spMatVec(&f.G[i], row))
	}
	return obj
}

// FmllrResult is what Update reports: the auxiliary-function improvement
// (0 when the transform was left alone), the count β, and for a full
// update the auxiliary function before and after each pass over the rows.
type FmllrResult struct {
	Improvement, Count float64
	Objf               []float64
	Updated            bool
}

// Identity is the d × d+1 transform [I | 0] (Kaldi's SetUnit).
func Identity(dim int) []float64 {
	w := make([]float64, dim*(dim+1))
	for i := 0; i < dim; i++ {
		w[i*(dim+1)+i] = 1
	}
	return w
}

// Update estimates the transform from w (d × d+1, row-major; the caller
// starts it at Identity) as FmllrDiagGmmAccs::Update
// (src/transform/fmllr-diag-gmm.cc). With β ≤ MinCount the transform is
// left as it is and a warning given. Otherwise, "full" is Gales' row-by-row
// update (ComputeFmllrMatrixDiagGmmFull and FmllrInnerUpdate): for each row
// i, with c = [row i of A⁻ᵀ, 0] and k_i the row of K, the new row is
// w_i = (α·c + k_i)·G_i⁻¹ where α solves the quadratic e1·α² + e2·α − β = 0
// (e1 = c·G_i⁻¹·cᵀ, e2 = c·G_i⁻¹·k_iᵀ), taking the root of higher auxiliary
// function; NumIters passes over the rows, and if the auxiliary function
// fell overall (beyond ApproxEqual) the old transform is kept with Kaldi's
// warning. "diag" and "offset" are Kaldi's closed forms; "none" keeps the
// identity. log and warn receive Kaldi's lines.
func (f *FmllrAccs) Update(o FmllrOptions, w []float64, log, warn func(string, ...any)) (FmllrResult, error) {
	f.commit()
	dim := f.Dim
	if err := o.Check(); err != nil {
		return FmllrResult{}, err
	}
	allZero := true
	for _, v := range w {
		if v != 0 {
			allZero = false
		}
	}
	if allZero {
		return FmllrResult{}, fmt.Errorf("You must initialize the fMLLR matrix to a non-singular value (so we can report objective function changes); e.g. call SetUnit()")
	}
	res := FmllrResult{Count: f.Beta}
	if !(f.Beta > o.MinCount) {
		warn("Not updating fMLLR since below min-count: count is %s", g6(f.Beta))
		return res, nil
	}
	var err error
	switch o.UpdateType {
	case "full":
		err = f.updateFull(o.NumIters, w, &res, log, warn)
	case "diag":
		err = f.updateDiag(w, &res, warn)
	case "offset":
		f.updateOffset(w, &res, warn)
	case "none":
		res.Updated = true
		copy(w, Identity(dim))
	}
	return res, err
}

func (f *FmllrAccs) updateFull(iters int, w []float64, res *FmllrResult, log, warn func(string, ...any)) error {
	dim := f.Dim
	ginv := make([]SpMatrix, dim)
	for i := range f.G {
		var err error
		if ginv[i], err = invertSp(&f.G[i]); err != nil {
			return fmt.Errorf("fMLLR update: G_%d: %w", i, err)
		}
	}
	// Kaldi computes the objective before and after in float
	// (BaseFloat old_objf = FmllrAuxFuncDiagGmm(...)).
	oldObjf := float32(f.FmllrAuxf(w))
	nw := append([]float64(nil), w...)
	res.Objf = []float64{f.FmllrAuxf(nw)}
	for it := 0; it < iters; it++ {
		for d := 0; d < dim; d++ {
			if err := fmllrInnerUpdate(&ginv[d], f.K[d*(dim+1):(d+1)*(dim+1)], f.Beta, d, dim, nw); err != nil {
				return err
			}
		}
		res.Objf = append(res.Objf, f.FmllrAuxf(nw))
	}
	newObjf := float32(f.FmllrAuxf(nw))
	impr := newObjf - oldObjf
	log("fMLLR objf improvement is %s per frame over %s frames.", g6(float64(impr)/(f.Beta+1e-10)), g6(f.Beta))
	if impr < 0 && !approxEqual(newObjf, oldObjf) {
		warn("No applying fMLLR transform change because objective function did not increase.")
		return nil
	}
	// The transform is stored in float.
	for i, v := range nw {
		w[i] = float64(float32(v))
	}
	res.Improvement, res.Updated = float64(impr), true
	return nil
}

// approxEqual is Kaldi's ApproxEqual(float, float) with its default
// relative tolerance 0.001.
func approxEqual(a, b float32) bool {
	if a == b {
		return true
	}
	diff := math.Abs(float64(a - b))
	if math.IsInf(diff, 0) || math.IsNaN(diff) {
		return false
	}
	return diff <= 0.001*(math.Abs(float64(a))+math.Abs(float64(b)))
}

// fmllrInnerUpdate is Kaldi's FmllrInnerUpdate on row `row` of w.
func fmllrInnerUpdate(invG *SpMatrix, k []float64, beta float64, row, dim int, w []float64) error {
	at := make([]float64, dim*dim) // Aᵀ
	for i := 0; i < dim; i++ {
		for j := 0; j < dim; j++ {
			at[j*dim+i] = w[i*(dim+1)+j]
		}
	}
	cofMat, err := invertDense(dim, at)
	if err != nil {
		return fmt.Errorf("fMLLR update: the transform became singular")
	}
	cof := make([]float64, dim+1)
	copy(cof, cofMat[row*dim:(row+1)*dim])
	gc := spMatVec(invG, cof)
	e1 := dot(gc, cof)
	e2 := dot(gc, k)
	discr := math.Sqrt(e2*e2 + 4*e1*beta)
	a1 := (-e2 + discr) / (2 * e1)
	a2 := (-e2 - discr) / (2 * e1)
	f1 := beta*math.Log(math.Abs(a1*e1+e2)) - 0.5*a1*a1*e1
	f2 := beta*math.Log(math.Abs(a2*e1+e2)) - 0.5*a2*a2*e1
	alpha := a2
	if f1 > f2 {
		alpha = a1
	}
	for i := range cof {
		cof[i] = alpha*cof[i] + k[i]
	}
	copy(w[row*(dim+1):(row+1)*(dim+1)], spMatVec(invG, cof))
	return nil
}

// updateDiag is ComputeFmllrMatrixDiagGmmDiagonal: per dimension a scale s
// and offset o in closed form (the positive root of a·s² + b·s + β = 0).
func (f *FmllrAccs) updateDiag(w []float64, res *FmllrResult, warn func(string, ...any)) error {
	dim := f.Dim
	if f.Beta == 0 {
		warn("Computing diagonal fMLLR matrix: no stats [using original transform]")
		return nil
	}
	for i := 0; i < dim; i++ {
		for j := 0; j < dim; j++ {
			if i != j && w[i*(dim+1)+j] != 0 {
				return fmt.Errorf("diagonal fMLLR update: the starting transform is not diagonal")
			}
		}
	}
	old := float32(f.FmllrAuxf(w))
	for i := 0; i < dim; i++ {
		kii, kid := f.K[i*(dim+1)+i], f.K[i*(dim+1)+dim]
		giii, gidd, gidi := f.G[i].At(i, i), f.G[i].At(dim, dim), f.G[i].At(dim, i)
		a := gidi*gidi/gidd - giii
		b := kii - gidi*kid/gidd
		s := (-b - math.Sqrt(b*b-4*a*f.Beta)) / (2 * a)
		if !(s > 0) {
			return fmt.Errorf("diagonal fMLLR update: no positive scale for dimension %d", i)
		}
		w[i*(dim+1)+i] = float64(float32(s))
		w[i*(dim+1)+dim] = float64(float32((kid - s*gidi) / gidd))
	}
	res.Improvement, res.Updated = float64(float32(f.FmllrAuxf(w))-old), true
	return nil
}

// updateOffset is ComputeFmllrMatrixDiagGmmOffset: only b, per dimension
// b_i = (K(i, d) − G_i(i, d)) / G_i(d, d), with A the identity.
func (f *FmllrAccs) updateOffset(w []float64, res *FmllrResult, warn func(string, ...any)) {
	dim := f.Dim
	impr := 0.0
	for i := 0; i < dim; i++ {
		gdd, gid, kid := f.G[i].At(dim, dim), f.G[i].At(i, dim), f.K[i*(dim+1)+dim]
		bi := w[i*(dim+1)+dim]
		before := -0.5*bi*bi*gdd - bi*gid + bi*kid
		bi = float64(float32((kid - gid) / gdd))
		w[i*(dim+1)+dim] = bi
		after := -0.5*bi*bi*gdd - bi*gid + bi*kid
		if after < before {
			warn("Objf decrease in offset estimation:%s < %s", g6(after), g6(before))
		}
		impr += after - before
	}
	res.Improvement, res.Updated = impr, true
}

// FmllrMatrix is w as a Kaldi float matrix (d × d+1).
func FmllrMatrix(dim int, w []float64) kaldiio.Matrix { return fromDouble(dim, dim+1, w) }
