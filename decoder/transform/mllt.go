package transform

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/internal/glibcrand"
	"github.com/strode-asr/strode/kaldiio"
)

// MlltAccs are the statistics of MLLT (global semi-tied covariance; Kaldi's
// MlltAccs): β, the frame count, and for every dimension i
//
//	G_i = Σ_t Σ_m γ_m(t) / σ²_{m,i} · (μ_m − x_t)(μ_m − x_t)ᵀ,
//
// in double.
type MlltAccs struct {
	Beta float64
	G    []SpMatrix
	// RandPrune is the randomised pruning threshold of the Gaussian
	// posteriors (gmm-acc-mllt --rand-prune); Rand draws its choices.
	RandPrune float64
	Rand      *glibcrand.Rand
}

// NewMlltAccs is MlltAccs::Init.
func NewMlltAccs(dim int, randPrune float64) *MlltAccs {
	a := &MlltAccs{G: make([]SpMatrix, dim), RandPrune: randPrune, Rand: glibcrand.New(1)}
	for i := range a.G {
		a.G[i] = NewSpMatrix(dim)
	}
	return a
}

// Dim is the feature dimension.
func (a *MlltAccs) Dim() int { return len(a.G) }

// RandPrune is Kaldi's RandPrune: a posterior below thresh in magnitude
// becomes ±thresh with probability |p|/thresh and 0 otherwise, so its
// expectation is kept; the draw is Kaldi's RandUniform on glibc's rand()
// (a Kaldi binary that never calls srand: seed 1).
func RandPrune(p, thresh float64, rng *glibcrand.Rand) float64 {
	if thresh == 0 || p == 0 || math.Abs(p) >= thresh {
		return p
	}
	sign := 1.0
	if p < 0 {
		sign = -1
	}
	if rng.RandUniform() <= math.Abs(p)/thresh {
		return sign * thresh
	}
	return 0
}

// AccumulateFromGmm adds frame x of g with weight w, as
// MlltAccs::AccumulateFromGmm: the Gaussian posteriors (float), scaled by
// w and randomly pruned, weight the outer products of the offsets μ − x
// (formed in float, accumulated in double). It returns the frame's
// log-likelihood under g.
func (a *MlltAccs) AccumulateFromGmm(g *gmm.DiagGmm, x []float32, w float32) float32 {
	post := make([]float32, g.NumGauss())
	ll := g.ComponentPosteriors(x, post)
	for i := range post {
		post[i] *= w
	}
	a.AccumulateFromPosteriors(g, x, post)
	return ll
}

// AccumulateFromPosteriors is MlltAccs::AccumulateFromPosteriors.
func (a *MlltAccs) AccumulateFromPosteriors(g *gmm.DiagGmm, x []float32, post []float32) {
	dim := g.Dim
	off := make([]float64, dim)
	tmp := NewSpMatrix(dim)
	beta := 0.0
	for m, p0 := range post {
		p := float32(RandPrune(float64(p0), a.RandPrune, a.Rand))
		if p == 0 {
			continue
		}
		miv := g.MeansInvVars[m*dim : (m+1)*dim]
		iv := g.InvVars[m*dim : (m+1)*dim]
		for d := 0; d < dim; d++ {
			off[d] = float64(miv[d]/iv[d] - x[d])
		}
		clear(tmp.Data)
		tmp.AddVec2(1, off)
		for j := 0; j < dim; j++ {
			a.G[j].AddSp(float64(iv[j]*p), &tmp)
		}
		beta += float64(p)
	}
	a.Beta += beta
}

// Add sums another accumulator into a (MlltAccs::Read with add).
func (a *MlltAccs) Add(o *MlltAccs) error {
	if len(a.G) == 0 {
		a.G = make([]SpMatrix, len(o.G))
		for i := range a.G {
			a.G[i] = NewSpMatrix(len(o.G))
		}
	}
	if len(o.G) != len(a.G) {
		return fmt.Errorf("MLLT stats: summing accs of different size, %d vs. %d", len(a.G), len(o.G))
	}
	a.Beta += o.Beta
	for i := range a.G {
		a.G[i].AddSp(1, &o.G[i])
	}
	return nil
}

// MlltAccsCodec reads and writes Kaldi's "<MlltAccs>" objects.
var MlltAccsCodec kaldiio.Codec[MlltAccs] = mlltCodec{}

type mlltCodec struct{}

func (mlltCodec) Write(w *kaldiio.Writer, binary bool, a *MlltAccs) error {
	nl := func() {
		if !binary {
			w.WriteString("\n")
		}
	}
	w.WriteToken(binary, "<MlltAccs>")
	nl()
	w.WriteFloat64(binary, a.Beta)
	w.WriteInt32(binary, int32(len(a.G)))
	w.WriteToken(binary, "<G>")
	nl()
	for i := range a.G {
		if err := writeSp(w, binary, false, &a.G[i]); err != nil {
			return err
		}
	}
	err := w.WriteToken(binary, "</MlltAccs>")
	nl()
	return err
}

func (mlltCodec) Read(r *kaldiio.Reader, binary bool, a *MlltAccs) error {
	if err := r.ExpectToken(binary, "<MlltAccs>"); err != nil {
		return err
	}
	beta, err := r.ReadFloat64(binary)
	if err != nil {
		return err
	}
	dim, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	if dim < 0 || dim > maxSpDim {
		return r.Errorf("MLLT stats have bad dimension %d", dim)
	}
	if err := r.ExpectToken(binary, "<G>"); err != nil {
		return err
	}
	a.Beta = beta
	a.G = make([]SpMatrix, dim)
	for i := range a.G {
		if err := readSp(r, binary, &a.G[i]); err != nil {
			return err
		}
		if a.G[i].N != int(dim) {
			return r.Errorf("MLLT stats: G_%d has dimension %d, expected %d", i, a.G[i].N, dim)
		}
	}
	return r.ExpectToken(binary, "</MlltAccs>")
}

// MlltAuxf is the MLLT auxiliary function of the square transform A
// (row-major dim × dim): β·log|det A| − ½·Σ_i a_iᵀ·G_i·a_i.
func MlltAuxf(beta float64, g []SpMatrix, a []float64) float64 {
	dim := len(g)
	obj := beta * logDetDense(dim, a)
	for i := 0; i < dim; i++ {
		row := a[i*dim : (i+1)*dim]
		obj -= 0.5 * dot(row, spMatVec(&g[i], row))
	}
	return obj
}

// MlltUpdateResult is what Update reports: the total improvement of the
// auxiliary function, the count β, and the auxiliary function after each
// of the iterations (Objf[0] before any).
type MlltUpdateResult struct {
	Improvement, Count float64
	Objf               []float64
}

// MlltIters is Kaldi's fixed iteration count of MlltAccs::Update.
const MlltIters = 200

// Update re-estimates the square transform m (row-major dim × dim, started
// from the caller's value, usually the identity) as Kaldi's static
// MlltAccs::Update (src/transform/mllt.cc), Gales' semi-tied covariance
// row update (eq. 22 of his tech report): for each row i in turn, with c
// the i'th row of A⁻ᵀ (the cofactor row up to det A, which cancels),
//
//	a_i = G_i⁻¹·c · √(β / cᵀ·G_i⁻¹·c),
//
// which maximises β·log|a_i·c| − ½·a_iᵀ·G_i·a_i with the other rows fixed,
// so the auxiliary function never decreases; Kaldi stops with an error if
// a row's objective falls by more than 1e-5 relatively, and so do we. A
// count under 10·dim is warned about, as Kaldi does. log receives Kaldi's
// per-iteration lines (the first ten and every tenth).
func (a *MlltAccs) Update(m []float64, log, warn func(string, ...any)) (MlltUpdateResult, error) {
	dim := a.Dim()
	if dim == 0 || len(m) != dim*dim {
		return MlltUpdateResult{}, fmt.Errorf("MLLT update: matrix of %d elements for dimension %d", len(m), dim)
	}
	beta := a.Beta
	if beta < 10*float64(dim) {
		if beta > 2*float64(dim) {
			warn("Mllt:Update, very small count %s", g6(beta))
		} else {
			warn("Mllt:Update, insufficient count %s", g6(beta))
		}
	}
	ginv := make([]SpMatrix, dim)
	for i := range a.G {
		var err error
		if ginv[i], err = invertSp(&a.G[i]); err != nil {
			return MlltUpdateResult{}, fmt.Errorf("MLLT update: G_%d: %w (no data in that dimension?)", i, err)
		}
	}
	res := MlltUpdateResult{Count: beta, Objf: []float64{MlltAuxf(beta, a.G, m)}}
	tot := 0.0
	for p := 0; p < MlltIters; p++ {
		for i := 0; i < dim; i++ {
			row := m[i*dim : (i+1)*dim]
			inv, err := invertDense(dim, m)
			if err != nil {
				return res, fmt.Errorf("MLLT update: the transform became singular at iteration %d", p)
			}
			// Row i of A⁻ᵀ is column i of A⁻¹.
			cof := make([]float64, dim)
			for j := range cof {
				cof[j] = inv[j*dim+i]
			}
			before := beta*math.Log(math.Abs(dot(row, cof))) - 0.5*dot(row, spMatVec(&a.G[i], row))
			gc := spMatVec(&ginv[i], cof)
			scale := math.Sqrt(beta / dot(cof, gc))
			for j := range row {
				row[j] = scale * gc[j]
			}
			after := beta*math.Log(math.Abs(dot(row, cof))) - 0.5*dot(row, spMatVec(&a.G[i], row))
			if after < before-math.Abs(before)*1e-5 {
				return res, fmt.Errorf("Objective decrease in MLLT update.")
			}
			tot += after - before
		}
		if p < 10 || p%10 == 0 {
			log("MLLT objective improvement per frame by %d'th iteration is %s per frame over %s frames.", p, g6(tot/beta), g6(beta))
		}
		res.Objf = append(res.Objf, MlltAuxf(beta, a.G, m))
	}
	res.Improvement = tot
	return res, nil
}
