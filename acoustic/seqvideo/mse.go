package seqvideo

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
)

// meanSquaredError is mean((pred − target)²) over every entry as one fused
// node. Besides sparing the graph two full-size temporaries per run (the
// difference and its square) it leaves pred's value alone: gorgonia may
// compute a Sub in place in its first operand's tensor, which here is the
// decoder's output that Batch.Predicted and NextFrameMSE read after the run.
func meanSquaredError(n *nn.Net, pred, target *autodiff.Node) *autodiff.Node {
	// Sum of the 1×1 result: a scalar node, which a cost must be.
	return n.Sum(n.Fused("mse", mseKernel{}, pred, target))
}

// mseKernel: out = Σ (p − y)² / M; d p = 2(p − y)/M · d out, d y = −d p.
type mseKernel struct{}

func (mseKernel) Shape(in [][2]int) (int, int, error) {
	if len(in) != 2 || in[0] != in[1] {
		return 0, 0, fmt.Errorf("mse: inputs %v, want two matrices of one shape", in)
	}
	return 1, 1, nil
}

func (mseKernel) Forward(out []float64, in [][]float64) {
	p, y := in[0], in[1]
	var s0, s1 float64
	i := 0
	for ; i+2 <= len(p); i += 2 {
		d0, d1 := p[i]-y[i], p[i+1]-y[i+1]
		s0 += d0 * d0
		s1 += d1 * d1
	}
	for ; i < len(p); i++ {
		s0 += (p[i] - y[i]) * (p[i] - y[i])
	}
	out[0] = (s0 + s1) / float64(len(p))
}

func (mseKernel) Backward(din [][]float64, dout []float64, in [][]float64) {
	p, y := in[0], in[1]
	c := 2 * dout[0] / float64(len(p))
	dp, dy := din[0], din[1]
	for i := range p {
		g := c * (p[i] - y[i])
		dp[i] += g
		dy[i] -= g
	}
}
