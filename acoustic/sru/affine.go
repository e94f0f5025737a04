package sru

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/internal/gemm"
)

// Affine is x·W + b for x (N×In), W (In×P) and the 1×P row b: the output
// layer after the encoder, whose product is the largest after the SRU's
// (H×P with thousands of pdfs). With Float32Products it is one fused
// float32 operation (affine32); otherwise the float64 graph's MatMul and
// AddRow, for the gradient checks.
func Affine(n *nn.Net, x *autodiff.Node, w, b *optim.Param) (*autodiff.Node, error) {
	if !Float32Products {
		y := n.AddRow(n.MatMul(x, n.P(w)), n.P(b))
		return y, n.Err()
	}
	xs := x.Shape()
	if len(xs) != 2 || xs[1] != w.Rows || b.Rows != 1 || b.Cols != w.Cols {
		return nil, fmt.Errorf("sru: affine of %v with %s %d×%d and %s %d×%d", xs, w.Name, w.Rows, w.Cols, b.Name, b.Rows, b.Cols)
	}
	y := n.Fused("affine", &affine32{}, x, n.P(w), n.P(b))
	return y, n.Err()
}

// affine32 is y = x·W + b in float32: the bias is broadcast into y, then
// one gemm adds the product (beta = 1). The reverse pass is dx = dy·Wᵀ,
// dW = xᵀ·dy and db = the column sums of dy (accumulated in float64). The
// float32 copies of x and W from the forward pass serve the reverse pass.
type affine32 struct {
	n, in, p int
	x, w, y  []float32
	dy, dx   []float32
	dw       []float32
}

func (a *affine32) Shape(in [][2]int) (rows, cols int, err error) {
	if len(in) != 3 || in[0][1] != in[1][0] || in[2] != [2]int{1, in[1][1]} {
		return 0, 0, fmt.Errorf("sru: affine inputs %v", in)
	}
	a.n, a.in, a.p = in[0][0], in[0][1], in[1][1]
	return a.n, a.p, nil
}

func grow32(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

func (a *affine32) Forward(out []float64, in [][]float64) {
	a.x = grow32(a.x, a.n*a.in)
	a.w = grow32(a.w, a.in*a.p)
	a.y = grow32(a.y, a.n*a.p)
	narrow(a.x, in[0])
	narrow(a.w, in[1])
	for r := 0; r < a.n; r++ {
		narrow(a.y[r*a.p:(r+1)*a.p], in[2])
	}
	gemm.Sgemm(false, false, a.n, a.p, a.in, 1, a.x, a.in, a.w, a.p, 1, a.y, a.p)
	widen(out, a.y)
}

func (a *affine32) Backward(din [][]float64, dout []float64, in [][]float64) {
	a.dy = grow32(a.dy, a.n*a.p)
	a.dx = grow32(a.dx, a.n*a.in)
	a.dw = grow32(a.dw, a.in*a.p)
	narrow(a.dy, dout)
	gemm.Sgemm(false, true, a.n, a.in, a.p, 1, a.dy, a.p, a.w, a.p, 0, a.dx, a.in)
	widen(din[0], a.dx)
	gemm.Sgemm(true, false, a.in, a.p, a.n, 1, a.x, a.in, a.dy, a.p, 0, a.dw, a.p)
	widen(din[1], a.dw)
	db := din[2]
	for r := 0; r < a.n; r++ {
		row := a.dy[r*a.p : (r+1)*a.p]
		for j, v := range row {
			db[j] += float64(v)
		}
	}
}
