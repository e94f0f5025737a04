package gmm

import (
	"fmt"

	"github.com/strode-asr/strode/internal/gemm"
	"github.com/strode-asr/strode/kaldiio"
)

// BatchScorer computes every pdf's log-likelihood of many frames at once:
// all Gaussians' linear and quadratic terms as one matrix product of the
// frames [x, x²] with the stacked [μ/σ²; −½·1/σ²] (internal/gemm), then a
// log-sum-exp per pdf. It is the same function as AmDiagGmm.LogLikelihoods
// up to float rounding (the sums run in another order), and many times
// faster on models with hundreds of Gaussians, which is what training's
// realignment passes need. The model must not change while it is in use.
type BatchScorer struct {
	am      *AmDiagGmm
	w       []float32 // 2·Dim × NumGauss
	gconsts []float32
	first   []int // first Gaussian of each pdf; len NumPdfs+1
	x2, s   []float32
}

// NewBatchScorer prepares am's parameters for batched scoring.
func NewBatchScorer(am *AmDiagGmm) *BatchScorer {
	dim, n := am.Dim, am.NumGauss()
	b := &BatchScorer{am: am, w: make([]float32, 2*dim*n), gconsts: make([]float32, 0, n), first: make([]int, 0, am.NumPdfs()+1)}
	col := 0
	for i := range am.Pdfs {
		g := &am.Pdfs[i]
		b.first = append(b.first, col)
		for k := 0; k < g.NumGauss(); k++ {
			for d := 0; d < dim; d++ {
				b.w[d*n+col] = g.MeansInvVars[k*dim+d]
				b.w[(dim+d)*n+col] = -0.5 * g.InvVars[k*dim+d]
			}
			b.gconsts = append(b.gconsts, g.Gconsts[k])
			col++
		}
	}
	b.first = append(b.first, col)
	return b
}

// LogLikelihoods writes every pdf's log-likelihood of the frames of feats
// into out (Rows × NumPdfs).
func (b *BatchScorer) LogLikelihoods(feats *kaldiio.Matrix, out *kaldiio.Matrix) error {
	dim, n, t := b.am.Dim, len(b.gconsts), feats.Rows
	if feats.Cols != dim {
		return fmt.Errorf("gmm: features have dimension %d, the model %d", feats.Cols, dim)
	}
	b.x2 = grow(b.x2, t*2*dim)
	for i := 0; i < t; i++ {
		x := feats.Data[i*dim : (i+1)*dim]
		row := b.x2[i*2*dim : (i+1)*2*dim]
		for d, v := range x {
			row[d] = v
			row[dim+d] = v * v
		}
	}
	b.s = grow(b.s, t*n)
	for i := 0; i < t; i++ {
		copy(b.s[i*n:(i+1)*n], b.gconsts)
	}
	if t > 0 {
		gemm.Sgemm(false, false, t, n, 2*dim, 1, b.x2, 2*dim, b.w, n, 1, b.s, n)
	}
	p := b.am.NumPdfs()
	out.Resize(t, p)
	for i := 0; i < t; i++ {
		row := b.s[i*n : (i+1)*n]
		o := out.Data[i*p : (i+1)*p]
		for j := 0; j < p; j++ {
			o[j] = logSumExp(row[b.first[j]:b.first[j+1]])
		}
	}
	return nil
}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}
