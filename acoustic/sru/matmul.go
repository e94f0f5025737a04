package sru

import (
	"fmt"
	"hash"

	"github.com/chewxy/hm"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/internal/gemm"
)

// Float32Products makes MatMul compute its products in float32 through
// internal/gemm (SIMD SGEMM): the graph stays float64, the operands are
// rounded to float32 for the multiply and the sums accumulate in float32.
// The gradient checks turn it off to compare float64 against finite
// differences; training and forward passes keep it on, as the paper's
// PyTorch code runs in float32.
var Float32Products = true

// MatMul is the product a·b (M×K times K×N) on the graph: through
// internal/gemm in float32 when Float32Products is set (forward and both
// backward products), else gorgonia's float64 multiply.
func MatMul(n *nn.Net, a, b *autodiff.Node) (*autodiff.Node, error) {
	if !Float32Products {
		y := n.MatMul(a, b)
		return y, n.Err()
	}
	as, bs := a.Shape(), b.Shape()
	if len(as) != 2 || len(bs) != 2 || as[1] != bs[0] {
		return nil, fmt.Errorf("sru: matmul of %v and %v", as, bs)
	}
	return gorgonia.ApplyOp(mm32Op{M: as[0], N: bs[1], K: as[1]}, a, b)
}

// mm32Op is C = op(A)·op(B) with op(A) M×K, op(B) K×N, in float32.
type mm32Op struct {
	TransA, TransB bool
	M, N, K        int
}

func (mm32Op) Arity() int    { return 2 }
func (mm32Op) Type() hm.Type { return matType(2) }
func (o mm32Op) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{o.M, o.N}, nil
}

func to32(dst []float32, src []float64) []float32 {
	if cap(dst) < len(src) {
		dst = make([]float32, len(src))
	}
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(v)
	}
	return dst
}

func (o mm32Op) Do(v ...gorgonia.Value) (gorgonia.Value, error) {
	a, err := floats(v[0], "matmul A")
	if err != nil {
		return nil, err
	}
	b, err := floats(v[1], "matmul B")
	if err != nil {
		return nil, err
	}
	if len(a) != o.M*o.K || len(b) != o.K*o.N {
		return nil, fmt.Errorf("sru: matmul sizes %d, %d for %d×%d·%d×%d", len(a), len(b), o.M, o.K, o.K, o.N)
	}
	a32, b32 := to32(nil, a), to32(nil, b)
	c32 := make([]float32, o.M*o.N)
	lda, ldb := o.K, o.N
	if o.TransA {
		lda = o.M
	}
	if o.TransB {
		ldb = o.K
	}
	gemm.Sgemm(o.TransA, o.TransB, o.M, o.N, o.K, 1, a32, lda, b32, ldb, 0, c32, o.N)
	c := make([]float64, len(c32))
	for i, x := range c32 {
		c[i] = float64(x)
	}
	return tensor.New(tensor.WithShape(o.M, o.N), tensor.WithBacking(c)), nil
}
func (mm32Op) ReturnsPtr() bool     { return false }
func (mm32Op) CallsExtern() bool    { return false }
func (mm32Op) OverwritesInput() int { return -1 }
func (o mm32Op) String() string {
	return fmt.Sprintf("mm32{%v %v %d %d %d}", o.TransA, o.TransB, o.M, o.N, o.K)
}
func (o mm32Op) WriteHash(h hash.Hash) { h.Write([]byte(o.String())) }
func (o mm32Op) Hashcode() uint32      { return hashOf(o) }
func (o mm32Op) DiffWRT(int) []bool    { return []bool{true, true} }

// SymDiff of C = A·B (no transposes): dA = dC·Bᵀ, dB = Aᵀ·dC.
func (o mm32Op) SymDiff(in gorgonia.Nodes, out, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	if o.TransA || o.TransB {
		return nil, fmt.Errorf("sru: no gradient for a transposed mm32")
	}
	da, err := gorgonia.ApplyOp(mm32Op{TransB: true, M: o.M, N: o.K, K: o.N}, grad, in[1])
	if err != nil {
		return nil, err
	}
	db, err := gorgonia.ApplyOp(mm32Op{TransA: true, M: o.K, N: o.N, K: o.M}, in[0], grad)
	if err != nil {
		return nil, err
	}
	return gorgonia.Nodes{da, db}, nil
}
