package sru

import "fmt"

// The reverse direction of a bidirectional layer runs the same recurrence
// as the forward one on a copy of its input in which every utterance's
// real frames are in reverse order: with n_b real frames in utterance b,
// its i-th real frame and its (n_b−1−i)-th exchange rows, padded rows stay
// where they are. The reverse recurrence therefore starts at each
// utterance's own last real frame (not at the padded end of the batch) and
// sees padding exactly where the forward one does. The exchange is its own
// inverse, so one map serves the way in, the way back and both gradients.

// reversal returns, for the 0/1 mask of a T×B time-major block, the row
// that every row exchanges with.
func reversal(mask []float64, t, b int, perm []int) []int {
	perm = append(perm[:0], make([]int, t*b)...)
	for r := range perm {
		perm[r] = r
	}
	rows := make([]int, 0, t)
	for u := 0; u < b; u++ {
		rows = rows[:0]
		for i := 0; i < t; i++ {
			if mask[i*b+u] != 0 {
				rows = append(rows, i*b+u)
			}
		}
		for i, r := range rows {
			perm[r] = rows[len(rows)-1-i]
		}
	}
	return perm
}

// permuteRows writes dst[perm[r]] = src[r] for rows of cols values.
func permuteRows[T float32 | float64](dst, src []T, perm []int, cols int) {
	for r, p := range perm {
		copy(dst[p*cols:(p+1)*cols], src[r*cols:(r+1)*cols])
	}
}

// reverseRows is a autodiff.Kernel: (x N×C, mask N×1) → x with every
// utterance's real frames reversed; the gradient is reversed back.
type reverseRows struct {
	t, b, cols int
	perm       []int
}

func (k *reverseRows) Shape(in [][2]int) (rows, cols int, err error) {
	n := k.t * k.b
	if len(in) != 2 || in[0][0] != n || in[1] != [2]int{n, 1} {
		return 0, 0, fmt.Errorf("sru: reverse of %v with mask %v for %d×%d frames", in[0], in[1], k.t, k.b)
	}
	k.cols = in[0][1]
	return n, k.cols, nil
}

func (k *reverseRows) Forward(out []float64, in [][]float64) {
	k.perm = reversal(in[1], k.t, k.b, k.perm)
	permuteRows(out, in[0], k.perm, k.cols)
}

func (k *reverseRows) Backward(din [][]float64, dout []float64, in [][]float64) {
	permuteRows(din[0], dout, k.perm, k.cols)
}

// colsKernel is a autodiff.Kernel: columns [C0, C1) of x.
type colsKernel struct{ C0, C1 int }

func (k colsKernel) Shape(in [][2]int) (rows, cols int, err error) {
	if len(in) != 1 || k.C0 < 0 || k.C1 > in[0][1] || k.C0 >= k.C1 {
		return 0, 0, fmt.Errorf("sru: columns [%d, %d) of %v", k.C0, k.C1, in)
	}
	return in[0][0], k.C1 - k.C0, nil
}

func (k colsKernel) Forward(out []float64, in [][]float64) {
	w := k.C1 - k.C0
	c := len(in[0]) / (len(out) / w)
	for r := 0; r < len(out)/w; r++ {
		copy(out[r*w:(r+1)*w], in[0][r*c+k.C0:r*c+k.C1])
	}
}

func (k colsKernel) Backward(din [][]float64, dout []float64, in [][]float64) {
	w := k.C1 - k.C0
	c := len(in[0]) / (len(dout) / w)
	for r := 0; r < len(dout)/w; r++ {
		copy(din[0][r*c+k.C0:r*c+k.C1], dout[r*w:(r+1)*w])
	}
}

// concatKernel is a autodiff.Kernel: [a | b] for a N×Ca and b N×Cb.
type concatKernel struct{ rows int }

func (k *concatKernel) Shape(in [][2]int) (rows, cols int, err error) {
	if len(in) != 2 || in[0][0] != in[1][0] {
		return 0, 0, fmt.Errorf("sru: concatenation of %v", in)
	}
	k.rows = in[0][0]
	return in[0][0], in[0][1] + in[1][1], nil
}

func (k *concatKernel) Forward(out []float64, in [][]float64) {
	splitCols(out, in[0], in[1], k.rows, false)
}

func (k *concatKernel) Backward(din [][]float64, dout []float64, in [][]float64) {
	splitCols(dout, din[0], din[1], k.rows, true)
}

// splitCols copies the rows of a and b into the column blocks of m (m =
// [a | b]), or with split the other way.
func splitCols[T float32 | float64](m, a, b []T, rows int, split bool) {
	ca, cb := len(a)/rows, len(b)/rows
	for i := 0; i < rows; i++ {
		row := m[i*(ca+cb) : (i+1)*(ca+cb)]
		if split {
			copy(a[i*ca:(i+1)*ca], row[:ca])
			copy(b[i*cb:(i+1)*cb], row[ca:])
		} else {
			copy(row[:ca], a[i*ca:(i+1)*ca])
			copy(row[ca:], b[i*cb:(i+1)*cb])
		}
	}
}
