package transform

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/kaldiio"
)

// Compose is Kaldi's ComposeTransforms (src/transform/transform-common.cc):
// C = A·B, B applied to the features first. If A is affine on B's output
// (A has one column more than B has rows), B is extended to a square
// affine matrix first: with bIsAffine its last column is its offset, so
// B gets the row [0 … 0 1] and C has B's columns; otherwise B is linear and
// gets a zero column and the row [0 … 0 1], so C has B's columns plus one.
// Kaldi computes the products in float; we sum in double and round once.
func Compose(a, b *kaldiio.Matrix, bIsAffine bool) (kaldiio.Matrix, error) {
	if b.Rows == 0 || a.Cols == 0 {
		return kaldiio.Matrix{}, fmt.Errorf("empty matrix in ComposeTransforms")
	}
	switch a.Cols {
	case b.Rows:
		return matMul(a, b), nil
	case b.Rows + 1:
		var ext kaldiio.Matrix
		if bIsAffine {
			ext = kaldiio.NewMatrix(b.Rows+1, b.Cols)
			for i := 0; i < b.Rows; i++ {
				copy(ext.Row(i), b.Row(i))
			}
			ext.Data[b.Rows*ext.Cols+b.Cols-1] = 1
		} else {
			ext = kaldiio.NewMatrix(b.Rows+1, b.Cols+1)
			for i := 0; i < b.Rows; i++ {
				copy(ext.Row(i), b.Row(i))
			}
			ext.Data[b.Rows*ext.Cols+b.Cols] = 1
		}
		return matMul(a, &ext), nil
	}
	return kaldiio.Matrix{}, fmt.Errorf("ComposeTransforms: mismatched dimensions, a has %d columns and b has %d rows", a.Cols, b.Rows)
}

func matMul(a, b *kaldiio.Matrix) kaldiio.Matrix {
	c := kaldiio.NewMatrix(a.Rows, b.Cols)
	for i := 0; i < a.Rows; i++ {
		for j := 0; j < b.Cols; j++ {
			s := 0.0
			for k := 0; k < a.Cols; k++ {
				s += float64(a.At(i, k)) * float64(b.At(k, j))
			}
			c.Data[i*c.Cols+j] = float32(s)
		}
	}
	return c
}

// ErrTransformDim is wrapped by Apply's error when a transform fits
// neither as linear nor as affine.
var ErrTransformDim = fmt.Errorf("transform does not fit the features")

// Apply is transform-feats on one utterance: y = T·x for a linear T
// (T has as many columns as x has dimensions) or y = T·[x; 1] for an
// affine one (one column more). Anything else is ErrTransformDim, with
// Kaldi's hint when T has two columns more (a composition of two affine
// transforms without --b-is-affine).
func Apply(t, feats *kaldiio.Matrix) (kaldiio.Matrix, error) {
	d := feats.Cols
	if t.Cols != d && t.Cols != d+1 {
		hint := ""
		if t.Cols == d+2 {
			hint = " [perhaps the transform was created by compose-transforms, and you forgot the --b-is-affine option?]"
		}
		return kaldiio.Matrix{}, fmt.Errorf("%w: transform is %dx%d, features have dimension %d%s", ErrTransformDim, t.Rows, t.Cols, d, hint)
	}
	out := kaldiio.NewMatrix(feats.Rows, t.Rows)
	for n := 0; n < feats.Rows; n++ {
		x := feats.Row(n)
		y := out.Row(n)
		for i := 0; i < t.Rows; i++ {
			row := t.Row(i)
			var s float32
			for j, v := range x {
				s += row[j] * v
			}
			if t.Cols == d+1 {
				s += row[d]
			}
			y[i] = s
		}
	}
	return out, nil
}

// LogDetKind says what transform-feats's average logdet is: a true
// log-determinant (square), a pseudo one (dimension-reducing: ½·log det
// T·Tᵀ, which differs from the true one of a square factor by a constant),
// or none (dimension-increasing).
type LogDetKind int

// The kinds of LogDet.
const (
	LogDetTrue LogDetKind = iota
	LogDetPseudo
	LogDetNone
)

// LogDet is ½·log det(L·Lᵀ) of the linear part L of t (its first featDim
// columns), as transform-feats computes it, and its kind.
func LogDet(t *kaldiio.Matrix, featDim int) (float64, LogDetKind) {
	kind := LogDetTrue
	switch {
	case t.Rows > featDim:
		return 0, LogDetNone
	case t.Rows < featDim:
		kind = LogDetPseudo
	}
	n := t.Rows
	tt := mat.NewSymDense(n, nil)
	for i := 0; i < n; i++ {
		for j := 0; j <= i; j++ {
			s := 0.0
			for k := 0; k < featDim; k++ {
				s += float64(t.At(i, k)) * float64(t.At(j, k))
			}
			tt.SetSym(i, j, s)
		}
	}
	var chol mat.Cholesky
	if !chol.Factorize(tt) {
		// Singular or indefinite: Kaldi's SpMatrix::LogDet gives −inf or
		// NaN here, which transform-feats warns about and skips.
		return math.NaN(), kind
	}
	return 0.5 * chol.LogDet(), kind
}

// TransformMeans applies t (dim × dim linear or dim × dim+1 affine) to the
// means of every Gaussian of am, as gmm-transform-means: μ ← A·μ (+ b), the
// variances kept, the constants recomputed. (Kaldi's affine branch
// multiplies by the means without the appended 1 in some versions; we apply
// the offset, which is what the transform means.)
func TransformMeans(t *kaldiio.Matrix, am *gmm.AmDiagGmm) error {
	dim := am.Dim
	if t.Rows != dim {
		return fmt.Errorf("Transform matrix has %d rows but model has dimension %d", t.Rows, dim)
	}
	if t.Cols != dim && t.Cols != dim+1 {
		return fmt.Errorf("Transform matrix has %d columns but model has dimension %d (neither a linear nor an affine transform)", t.Cols, dim)
	}
	mean := make([]float32, dim)
	for p := range am.Pdfs {
		g := &am.Pdfs[p]
		for m := 0; m < g.NumGauss(); m++ {
			miv := g.MeansInvVars[m*dim : (m+1)*dim]
			iv := g.InvVars[m*dim : (m+1)*dim]
			for d := range mean {
				mean[d] = miv[d] / iv[d]
			}
			for i := 0; i < dim; i++ {
				row := t.Row(i)
				var s float32
				for j, v := range mean {
					s += row[j] * v
				}
				if t.Cols == dim+1 {
					s += row[dim]
				}
				miv[i] = s * iv[i]
			}
		}
		if _, err := g.ComputeGconsts(); err != nil {
			return fmt.Errorf("pdf %d: %w", p, err)
		}
	}
	return nil
}
