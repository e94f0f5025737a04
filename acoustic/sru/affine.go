package sru

import (
	"fmt"
	"github.com/strode-asr/strode/internal/f32"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/internal/gemm"
)

// Affine is x·W + b for x (N×In), W (In×P) and the 1×P row b: the output
// layer after the encoder, whose product is the largest after the SRU's
// (H×P with thousands of pdfs). With Float32Products it is one fused
// float32 operation (linear32); otherwise the float64 graph's MatMul and
// AddRow, for the gradient checks.
func Affine(n *nn.Net, x *autodiff.Node, w, b *optim.Param) (*autodiff.Node, error) {
	return affine(n, []*autodiff.Node{x}, []*optim.Param{w}, b, ActLinear)
}

// AffineActivation is the function a fused affine layer applies to its output.
type AffineActivation int

const (
	ActLinear  AffineActivation = iota
	ActSigmoid                  // the logistic 1/(1 + e⁻ˣ), vectorised as the SRU's gates
	ActReLU                     // max(x, 0)
	ActTanh                     // 2σ(2x) − 1: the logistic's vector code, 1e-7 from math.Tanh
)

// AffineAct is act(x·W + b) as one node: a feed-forward hidden layer. The
// activation runs on the float32 output in place (the sigmoid and tanh 8
// lanes at a time, as the SRU's gates), and its derivative — y(1 − y),
// 1 − y² or [y > 0] — comes from the kept output, where the float64
// graph's Sigmoid, Tanh or Relu node costs a transcendental per value, a
// copy and a node in each direction.
func AffineAct(n *nn.Net, x *autodiff.Node, w, b *optim.Param, act AffineActivation) (*autodiff.Node, error) {
	return affine(n, []*autodiff.Node{x}, []*optim.Param{w}, b, act)
}

// AffineSum is x₁·W₁ + x₂·W₂ + … + b, one output from several inputs: the
// STRODE output layer, which reads the encoder's output e and the head's
// h̃ (e·W + h̃·W_h + b). As one float32 node the N×P output and its
// gradient are made and narrowed once, not once per product and again for
// their sum.
func AffineSum(n *nn.Net, xs []*autodiff.Node, ws []*optim.Param, b *optim.Param) (*autodiff.Node, error) {
	return affine(n, xs, ws, b, ActLinear)
}

// affine is act(Σ x_k·W_k + b): one linear32 node, or the float64 graph's
// operations when Float32Products is off.
func affine(n *nn.Net, xs []*autodiff.Node, ws []*optim.Param, b *optim.Param, act AffineActivation) (*autodiff.Node, error) {
	if len(xs) == 0 || len(xs) != len(ws) {
		return nil, fmt.Errorf("sru: affine of %d inputs and %d weights", len(xs), len(ws))
	}
	if !Float32Products {
		var y *autodiff.Node
		for i, x := range xs {
			p := n.MatMul(x, n.P(ws[i]))
			if y == nil {
				y = p
			} else {
				y = n.Add(y, p)
			}
		}
		y = n.AddRow(y, n.P(b))
		switch act {
		case ActSigmoid:
			y = n.Sigmoid(y)
		case ActReLU:
			y = n.Relu(y)
		case ActTanh:
			y = n.Tanh(y)
		}
		return y, n.Err()
	}
	in := make([]*autodiff.Node, 0, 2*len(xs)+1)
	for i, x := range xs {
		xs := x.Shape()
		w := ws[i]
		if len(xs) != 2 || xs[1] != w.Rows || b.Rows != 1 || b.Cols != w.Cols {
			return nil, fmt.Errorf("sru: affine of %v with %s %d×%d and %s %d×%d", xs, w.Name, w.Rows, w.Cols, b.Name, b.Rows, b.Cols)
		}
		in = append(in, x, n.P(w))
	}
	y := n.Fused("affine", &linear32{bias: true, act: act}, append(in, n.P(b))...)
	return y, n.Err()
}

// linear32 is y = act(Σ_k x_k·W_k (+ b)) in float32: the bias (if any) is
// broadcast into y, then one gemm per pair adds its product (beta = 1).
// The reverse pass narrows dy once for dx_k = dy·W_kᵀ, dW_k = x_kᵀ·dy and
// db = the column sums of dy (accumulated in float64). The float32 copies
// of the x_k and W_k from the forward pass serve the reverse pass, and
// every buffer is kept from one minibatch to the next.
type linear32 struct {
	bias   bool
	act    AffineActivation
	n, p   int
	in     []int // the width of each x_k
	x, w   [][]float32
	dx, dw [][]float32
	y, dy  []float32
}

func (a *linear32) Shape(in [][2]int) (rows, cols int, err error) {
	pairs := len(in)
	if a.bias {
		pairs--
	}
	if pairs < 2 || pairs%2 != 0 {
		return 0, 0, fmt.Errorf("sru: linear32 inputs %v", in)
	}
	pairs /= 2
	a.n, a.p = in[0][0], in[1][1]
	a.in = make([]int, pairs)
	for k := range pairs {
		x, w := in[2*k], in[2*k+1]
		if x[0] != a.n || x[1] != w[0] || w[1] != a.p {
			return 0, 0, fmt.Errorf("sru: linear32 inputs %v: pair %d is %v·%v", in, k, x, w)
		}
		a.in[k] = x[1]
	}
	if a.bias && in[len(in)-1] != [2]int{1, a.p} {
		return 0, 0, fmt.Errorf("sru: linear32 inputs %v: the bias is not 1×%d", in, a.p)
	}
	a.x, a.w = make([][]float32, pairs), make([][]float32, pairs)
	a.dx, a.dw = make([][]float32, pairs), make([][]float32, pairs)
	return a.n, a.p, nil
}

func (a *linear32) Forward(out []float64, in [][]float64) {
	f32.Widen(out, a.forward32(in))
}

// forward32 is Forward without the widening: y in float32, valid until the
// next call.
func (a *linear32) forward32(in [][]float64) []float32 {
	a.y = f32.Grow(a.y, a.n*a.p)
	if a.bias {
		for r := 0; r < a.n; r++ {
			f32.Narrow(a.y[r*a.p:(r+1)*a.p], in[len(in)-1])
		}
	} else {
		clear(a.y)
	}
	for k, d := range a.in {
		a.x[k] = f32.Grow(a.x[k], a.n*d)
		a.w[k] = f32.Grow(a.w[k], d*a.p)
		f32.Narrow(a.x[k], in[2*k])
		f32.Narrow(a.w[k], in[2*k+1])
		gemm.Sgemm(false, false, a.n, a.p, d, 1, a.x[k], d, a.w[k], a.p, 1, a.y, a.p)
	}
	switch a.act {
	case ActSigmoid:
		sigmoidInPlace(a.y)
	case ActReLU:
		for i, v := range a.y {
			a.y[i] = max(v, 0)
		}
	case ActTanh:
		TanhInPlace(a.y)
	}
	return a.y
}

func (a *linear32) Backward(din [][]float64, dout []float64, in [][]float64) {
	a.dy = f32.Grow(a.dy, a.n*a.p)
	f32.Narrow(a.dy, dout)
	a.backward32(din, a.dy)
}

// backward32 is Backward from dy = d cost/d y in float32, which it
// overwrites (with the gradient before the activation).
func (a *linear32) backward32(din [][]float64, dy []float32) {
	// Through the activation: dy ⊙ f'(pre-activation), from the output y.
	switch a.act {
	case ActSigmoid:
		for i, y := range a.y {
			dy[i] *= y * (1 - y)
		}
	case ActReLU:
		for i, y := range a.y {
			if y <= 0 {
				dy[i] = 0
			}
		}
	case ActTanh:
		for i, y := range a.y {
			dy[i] *= 1 - y*y
		}
	}
	for k, d := range a.in {
		a.dx[k] = f32.Grow(a.dx[k], a.n*d)
		a.dw[k] = f32.Grow(a.dw[k], d*a.p)
		gemm.Sgemm(false, true, a.n, d, a.p, 1, dy, a.p, a.w[k], a.p, 0, a.dx[k], d)
		f32.Widen(din[2*k], a.dx[k])
		gemm.Sgemm(true, false, d, a.p, a.n, 1, a.x[k], d, dy, a.p, 0, a.dw[k], a.p)
		f32.Widen(din[2*k+1], a.dw[k])
	}
	if a.bias {
		db := din[len(din)-1]
		for r := 0; r < a.n; r++ {
			row := dy[r*a.p : (r+1)*a.p]
			for j, v := range row {
				db[j] += float64(v)
			}
		}
	}
}

// Affine32 is the float32 engine of the fused affine layer (y = Σ_k x_k·W_k
// + b, inputs x₁, W₁, x₂, W₂, …, b as AffineSum's node takes them) for a
// kernel in another package that consumes y in float32 — the training
// cross-entropy, which then needs neither a float64 copy of the N×P
// logits nor one of their gradient.
type Affine32 struct{ l linear32 }

// NewAffine32 returns an affine layer with a bias and no activation.
func NewAffine32() *Affine32 { return &Affine32{l: linear32{bias: true}} }

// Shape checks the input shapes and returns the output's.
func (a *Affine32) Shape(in [][2]int) (rows, cols int, err error) { return a.l.Shape(in) }

// Forward returns y (rows×cols, float32), valid until the next Forward.
func (a *Affine32) Forward(in [][]float64) []float32 { return a.l.forward32(in) }

// Backward writes d cost/d in[i] into din[i] (zeroed) for dy = d cost/d y
// of the latest Forward; dy is overwritten.
func (a *Affine32) Backward(din [][]float64, dy []float32) { a.l.backward32(din, dy) }
