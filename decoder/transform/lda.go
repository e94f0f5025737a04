package transform

import (
	"flag"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/strode-asr/strode/kaldiio"
)

// LdaAccs are the statistics of LDA (Kaldi's LdaEstimate): per class the
// count and the sum of the features, and the total scatter Σ w·x·xᵀ over all
// classes, all in double.
type LdaAccs struct {
	Zero   []float64 // per class: Σ w
	First  []float64 // classes × dim: Σ w·x
	Second SpMatrix  // Σ w·x·xᵀ
	Dim    int
}

// NewLdaAccs is Kaldi's LdaEstimate::Init.
func NewLdaAccs(numClasses, dim int) *LdaAccs {
	return &LdaAccs{Zero: make([]float64, numClasses), First: make([]float64, numClasses*dim), Second: NewSpMatrix(dim), Dim: dim}
}

// NumClasses is the number of classes (pdfs).
func (a *LdaAccs) NumClasses() int { return len(a.Zero) }

// Accumulate adds one frame of class c with weight w (LdaEstimate::Accumulate:
// the frame is widened to double first).
func (a *LdaAccs) Accumulate(x []float32, c int, w float32) {
	xd := make([]float64, len(x))
	for i, v := range x {
		xd[i] = float64(v)
	}
	wd := float64(w)
	a.Zero[c] += wd
	row := a.First[c*a.Dim : (c+1)*a.Dim]
	for i, v := range xd {
		row[i] += wd * v
	}
	a.Second.AddVec2(wd, xd)
}

// Add sums another accumulator of the same shape into a.
func (a *LdaAccs) Add(o *LdaAccs) error {
	if a.NumClasses() != o.NumClasses() || a.Dim != o.Dim {
		return fmt.Errorf("LDA stats: dimension or classes count mismatch, %d, %d vs. %d, %d", a.NumClasses(), a.Dim, o.NumClasses(), o.Dim)
	}
	for i, v := range o.Zero {
		a.Zero[i] += v
	}
	for i, v := range o.First {
		a.First[i] += v
	}
	a.Second.AddSp(1, &o.Second)
	return nil
}

// LdaAccsCodec reads and writes Kaldi's LDA accumulators ("<LDAACCS>").
// As LdaEstimate::Write does, the counts and sums are written as floats and
// the scatter as the within-class scatter Σ w·x·xᵀ − Σ_c s_c·s_cᵀ/n_c (in
// float), which loses less precision than the raw second moment; Read adds
// the class terms back from what it read.
var LdaAccsCodec kaldiio.Codec[LdaAccs] = ldaCodec{}

type ldaCodec struct{}

func (ldaCodec) Write(w *kaldiio.Writer, binary bool, a *LdaAccs) error {
	for _, s := range []string{"<LDAACCS>", "<VECSIZE>"} {
		if err := w.WriteToken(binary, s); err != nil {
			return err
		}
	}
	w.WriteInt32(binary, int32(a.Dim))
	w.WriteToken(binary, "<NUMCLASSES>")
	w.WriteInt32(binary, int32(a.NumClasses()))
	w.WriteToken(binary, "<ZERO_ACCS>")
	zero := make(kaldiio.Vector, len(a.Zero))
	for i, v := range a.Zero {
		zero[i] = float32(v)
	}
	if err := kaldiio.VectorCodec.Write(w, binary, &zero); err != nil {
		return err
	}
	w.WriteToken(binary, "<FIRST_ACCS>")
	first := fromDouble(a.NumClasses(), a.Dim, a.First)
	if err := kaldiio.MatrixCodec.Write(w, binary, &first); err != nil {
		return err
	}
	w.WriteToken(binary, "<SECOND_ACCS>")
	sec := SpMatrix{N: a.Dim, Data: append([]float64(nil), a.Second.Data...)}
	for c, n := range a.Zero {
		if n != 0 {
			sec.AddVec2(-1/n, a.First[c*a.Dim:(c+1)*a.Dim])
		}
	}
	if err := writeSp(w, binary, true, &sec); err != nil {
		return err
	}
	return w.WriteToken(binary, "</LDAACCS>")
}

func (ldaCodec) Read(r *kaldiio.Reader, binary bool, a *LdaAccs) error {
	if err := r.ExpectToken(binary, "<LDAACCS>"); err != nil {
		return err
	}
	if err := r.ExpectToken(binary, "<VECSIZE>"); err != nil {
		return err
	}
	dim, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	if err := r.ExpectToken(binary, "<NUMCLASSES>"); err != nil {
		return err
	}
	nc, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	if dim < 0 || dim > maxSpDim || nc < 0 || int64(nc)*int64(dim) > 1<<28 {
		return r.Errorf("LDA stats have bad sizes: dimension %d, %d classes", dim, nc)
	}
	*a = *NewLdaAccs(int(nc), int(dim))
	var zero kaldiio.DoubleVector
	var first kaldiio.DoubleMatrix
	for {
		tok, err := r.ReadToken(binary)
		if err != nil {
			return err
		}
		switch tok {
		case "</LDAACCS>":
			return nil
		case "<ZERO_ACCS>":
			if err := kaldiio.DoubleVectorCodec.Read(r, binary, &zero); err != nil {
				return err
			}
			if len(zero) != int(nc) {
				return r.Errorf("LDA stats: %d counts for %d classes", len(zero), nc)
			}
			copy(a.Zero, zero)
		case "<FIRST_ACCS>":
			if err := kaldiio.DoubleMatrixCodec.Read(r, binary, &first); err != nil {
				return err
			}
			if first.Rows != int(nc) || first.Cols != int(dim) {
				return r.Errorf("LDA stats: first-order stats are %dx%d, expected %dx%d", first.Rows, first.Cols, nc, dim)
			}
			copy(a.First, first.Data)
		case "<SECOND_ACCS>":
			var sec SpMatrix
			if err := readSp(r, binary, &sec); err != nil {
				return err
			}
			if sec.N != int(dim) {
				return r.Errorf("LDA stats: second-order stats of dimension %d, expected %d", sec.N, dim)
			}
			if len(zero) != int(nc) || first.Rows != int(nc) {
				return r.Errorf("LDA stats: <SECOND_ACCS> before the counts and sums")
			}
			for c := 0; c < int(nc); c++ {
				if zero[c] != 0 {
					sec.AddVec2(1/zero[c], first.Row(c))
				}
			}
			a.Second = sec
		default:
			return r.Errorf("unexpected token %q in LDA stats", tok)
		}
	}
}

// LdaOptions are est-lda's options (Kaldi's LdaEstimateOptions).
type LdaOptions struct {
	Dim               int
	AllowLargeDim     bool
	RemoveOffset      bool
	WithinClassFactor float64
}

// DefaultLdaOptions are Kaldi's defaults.
func DefaultLdaOptions() LdaOptions { return LdaOptions{Dim: 40, WithinClassFactor: 1} }

// Register adds the options to fs, with Kaldi's names.
func (o *LdaOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.RemoveOffset, "remove-offset", o.RemoveOffset, "If true, output an affine transform that makes the projected data mean equal to zero.")
	fs.IntVar(&o.Dim, "dim", o.Dim, "Dimension to project to with LDA")
	fs.BoolVar(&o.AllowLargeDim, "allow-large-dim", o.AllowLargeDim, "If true, allow an LDA dimension larger than the number of classes.")
	fs.Float64Var(&o.WithinClassFactor, "within-class-factor", o.WithinClassFactor, "(Deprecated) If 1.0, do conventional LDA where the within-class variance will be unit in the projected space.  May be set to less than 1.0, which scales the features to have less variance, particularly for dimensions where between-class variance is small.")
}

// LdaResult is what Estimate computes: the projection (Dim × dim, or
// Dim × dim+1 with RemoveOffset), the full dim × dim matrix (likewise), the
// eigenvalues of the between-class covariance in the whitened space
// (Kaldi's "singular values", descending) and the data count.
type LdaResult struct {
	M, Full     kaldiio.Matrix
	Eigenvalues []float64
	Count       float64
}

// Stats returns the total mean, total covariance and between-class
// covariance (LdaEstimate::GetStats): with N = Σ n_c and μ the total mean,
//
//	T = Σ w·x·xᵀ / N − μμᵀ,   B = Σ_c (n_c/N)·μ_c·μ_cᵀ − μμᵀ,
//
// classes without data skipped.
func (a *LdaAccs) Stats() (mean []float64, total, between SpMatrix, count float64) {
	dim := a.Dim
	for _, n := range a.Zero {
		count += n
	}
	mean = make([]float64, dim)
	for c := range a.Zero {
		for i := 0; i < dim; i++ {
			mean[i] += a.First[c*dim+i]
		}
	}
	for i := range mean {
		mean[i] /= count
	}
	total = NewSpMatrix(dim)
	for i, v := range a.Second.Data {
		total.Data[i] = v / count
	}
	total.AddVec2(-1, mean)
	between = NewSpMatrix(dim)
	cm := make([]float64, dim)
	for c, n := range a.Zero {
		if n == 0 {
			continue
		}
		for i := range cm {
			cm[i] = a.First[c*dim+i] / n
		}
		between.AddVec2(n/count, cm)
	}
	between.AddVec2(-1, mean)
	return mean, total, between, count
}

// Estimate computes the LDA transform as Kaldi's LdaEstimate::Estimate
// (src/transform/lda-estimate.cc): the within-class covariance W = T − B
// is factored W = L·Lᵀ (Cholesky; on failure 1e-3·tr(W)/dim is added to
// the diagonal and the factorisation retried, as Kaldi does), the
// between-class covariance is whitened, L⁻¹·B·L⁻ᵀ = U·diag(d)·Uᵀ, and the
// transform is Uᵀ·L⁻¹ with the eigenvalues descending. So each row r solves
// the generalised eigenproblem B·rᵀ = d·W·rᵀ and is normalised to
// r·W·rᵀ = 1: the projected within-class covariance is the identity.
// Kaldi takes U from an SVD of the (symmetric, positive semi-definite)
// whitened matrix, which is the same decomposition; we use a symmetric
// eigendecomposition. The sign of each eigenvector is arbitrary in both:
// we make the largest-magnitude component of each column of U positive.
// With WithinClassFactor ≠ 1 row i is scaled by √((f + d_i)/(1 + d_i));
// with RemoveOffset the column −M·μ (in float) is appended, so that the
// projected mean is zero (LdaEstimate::AddMeanOffset). log receives
// Kaldi's log lines.
func (a *LdaAccs) Estimate(o LdaOptions, log func(string, ...any)) (*LdaResult, error) {
	dim := a.Dim
	if o.Dim <= 0 || o.Dim > dim {
		return nil, fmt.Errorf("LDA dimension --dim=%d must be between 1 and the feature dimension %d", o.Dim, dim)
	}
	if o.Dim >= a.NumClasses() && !o.AllowLargeDim {
		return nil, fmt.Errorf("LDA dimension --dim=%d is not below the number of classes %d (the between-class covariance has rank at most %d); use --allow-large-dim to allow it", o.Dim, a.NumClasses(), a.NumClasses()-1)
	}
	mean, total, between, count := a.Stats()
	if !(count > 0) {
		return nil, fmt.Errorf("LDA stats have no data (total count %g)", count)
	}
	wc := NewSpMatrix(dim)
	for i := range wc.Data {
		wc.Data[i] = total.Data[i] - between.Data[i]
	}
	var chol mat.Cholesky
	if !chol.Factorize(mat.NewSymDense(dim, wc.Dense())) {
		smooth := 1e-3 * wc.Trace() / float64(dim)
		log("Cholesky failed (possibly not +ve definite), so adding %s to diagonal and trying again.\n", g6(smooth))
		for i := 0; i < dim; i++ {
			wc.Set(i, i, wc.At(i, i)+smooth)
		}
		if !chol.Factorize(mat.NewSymDense(dim, wc.Dense())) {
			return nil, fmt.Errorf("the within-class covariance is not positive definite, even smoothed")
		}
	}
	var l mat.TriDense
	chol.LTo(&l)
	var linv mat.TriDense
	if err := linv.InverseTri(&l); err != nil {
		return nil, fmt.Errorf("inverting the Cholesky factor of the within-class covariance: %w", err)
	}
	// L⁻¹·B·L⁻ᵀ, symmetrised against rounding.
	var tmp, wb mat.Dense
	tmp.Mul(&linv, mat.NewSymDense(dim, between.Dense()))
	wb.Mul(&tmp, linv.T())
	sym := mat.NewSymDense(dim, nil)
	for i := 0; i < dim; i++ {
		for j := 0; j <= i; j++ {
			sym.SetSym(i, j, 0.5*(wb.At(i, j)+wb.At(j, i)))
		}
	}
	var eig mat.EigenSym
	if !eig.Factorize(sym, true) {
		return nil, fmt.Errorf("eigendecomposition of the whitened between-class covariance failed")
	}
	vals := eig.Values(nil)
	var vecs mat.Dense
	eig.VectorsTo(&vecs)
	order := make([]int, dim)
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(x, y int) bool { return vals[order[x]] > vals[order[y]] })
	d := make([]float64, dim)
	u := mat.NewDense(dim, dim, nil)
	for k, src := range order {
		d[k] = vals[src]
		big, sign := 0.0, 1.0
		for i := 0; i < dim; i++ {
			if v := vecs.At(i, src); math.Abs(v) > big {
				big, sign = math.Abs(v), math.Copysign(1, v)
			}
		}
		for i := 0; i < dim; i++ {
			u.Set(i, k, sign*vecs.At(i, src))
		}
	}
	log("Data count is %s", g6(count))
	log("LDA singular values are %s", kaldiVectorString(d))
	sumAll, sumSel := 0.0, 0.0
	for i, v := range d {
		sumAll += v
		if i < o.Dim {
			sumSel += v
		}
	}
	log("Sum of all singular values is %s", g6(sumAll))
	log("Sum of selected singular values is %s", g6(sumSel))
	var full mat.Dense
	full.Mul(u.T(), &linv)
	res := &LdaResult{Eigenvalues: d, Count: count}
	fullData := denseData(&full)
	if o.WithinClassFactor != 1 {
		for i := 0; i < dim; i++ {
			// Kaldi scales in float (BaseFloat old_var, new_var, scale).
			oldVar := float32(1 + d[i])
			newVar := float32(o.WithinClassFactor + d[i])
			scale := float64(float32(math.Sqrt(float64(newVar / oldVar))))
			for j := 0; j < dim; j++ {
				fullData[i*dim+j] = float64(float32(fullData[i*dim+j])) * scale
			}
		}
	}
	res.Full = fromDouble(dim, dim, fullData)
	res.M = fromDouble(o.Dim, dim, fullData[:o.Dim*dim])
	if o.RemoveOffset {
		res.M = addMeanOffset(mean, res.M)
		res.Full = addMeanOffset(mean, res.Full)
	}
	return res, nil
}

// addMeanOffset appends the column −M·μ (LdaEstimate::AddMeanOffset, in
// float as Kaldi computes it).
func addMeanOffset(mean []float64, m kaldiio.Matrix) kaldiio.Matrix {
	out := kaldiio.NewMatrix(m.Rows, m.Cols+1)
	for i := 0; i < m.Rows; i++ {
		var s float32
		for j := 0; j < m.Cols; j++ {
			s += m.At(i, j) * float32(mean[j])
			out.Data[i*out.Cols+j] = m.At(i, j)
		}
		out.Data[i*out.Cols+m.Cols] = -s
	}
	return out
}

// kaldiVectorString is a vector as Kaldi's operator<< prints it in a log
// line: " [ 1 2 3 ]".
func kaldiVectorString(v []float64) string {
	var b strings.Builder
	b.WriteString(" [ ")
	for _, x := range v {
		b.WriteString(g6(x))
		b.WriteByte(' ')
	}
	b.WriteString("]")
	return b.String()
}
