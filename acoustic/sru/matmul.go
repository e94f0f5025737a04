package sru

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
)

// Float32Products makes MatMul compute its products in float32 through
// internal/gemm (SIMD SGEMM): the graph stays float64, the operands are
// rounded to float32 for the multiply and the sums accumulate in float32.
// The gradient checks turn it off to compare float64 against finite
// differences; training and forward passes keep it on, as the paper's
// PyTorch code runs in float32.
var Float32Products = true

// MatMul is the product a·b (M×K times K×N) on the graph: one fused
// float32 node through internal/gemm when Float32Products is set (linear32
// without a bias: the operands are narrowed once in the forward pass and
// reused by both backward products), else gorgonia's float64 multiply.
func MatMul(n *nn.Net, a, b *autodiff.Node) (*autodiff.Node, error) {
	if !Float32Products {
		y := n.MatMul(a, b)
		return y, n.Err()
	}
	as, bs := a.Shape(), b.Shape()
	if len(as) != 2 || len(bs) != 2 || as[1] != bs[0] {
		return nil, fmt.Errorf("sru: matmul of %v and %v", as, bs)
	}
	y := n.Fused("matmul", &linear32{}, a, b)
	return y, n.Err()
}
