package am

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
)

// gaussianLogLik is the STRODE loss's regenerative term on the graph: the
// mean over frames (weights w, N×1, summing to one over the minibatch's
// frames) of (1/S)·Σ_j log N(h̃_j; μ_j, σ²_j), σ² = softplus(a) + 1e-3,
// with μ and a the prior network's outputs from the next input. As
// graph operations it was eleven float64 nodes over N×S values and as many
// copies in each direction; as one kernel (gaussianKernel) it is two passes
// over the values. Float64 throughout: it is elementwise work, and the
// gradient checks see it as it is.
func gaussianLogLik(net *nn.Net, h, mu, a, w *autodiff.Node) *autodiff.Node {
	return net.Sum(net.Fused("gaussian", &gaussianKernel{}, h, mu, a, w)) // a scalar, as a cost must be
}

// gaussianKernel computes, per value, d = h − μ, v = softplus(a) + 1e-3 and
// log N = −½ log 2π − ½ log v − d²/(2v); the output (1×1) is
// Σ_r w_r Σ_j log N_rj / S. Its reverse pass, with g = dL/d output and
// c_r = g·w_r/S: dh = −c·d/v, dμ = −dh, da = c·(d²/v − 1)/(2v)·σ(a)
// (softplus' = the logistic σ), dw_r = g/S·Σ_j log N_rj.
type gaussianKernel struct {
	n, s int
}

func (k *gaussianKernel) Shape(in [][2]int) (rows, cols int, err error) {
	if len(in) != 4 || in[1] != in[0] || in[2] != in[0] || in[3] != [2]int{in[0][0], 1} {
		return 0, 0, fmt.Errorf("am: gaussian log-likelihood of %v", in)
	}
	k.n, k.s = in[0][0], in[0][1]
	return 1, 1, nil
}

// softplus is log(1 + eᵃ) without overflow.
func softplus(a float64) float64 { return math.Max(a, 0) + math.Log1p(math.Exp(-math.Abs(a))) }

func (k *gaussianKernel) row(h, mu, a []float64) float64 {
	sum := 0.0
	for j := range h {
		d := h[j] - mu[j]
		v := softplus(a[j]) + 1e-3
		sum += -halfLog2Pi - 0.5*math.Log(v) - d*d/(2*v)
	}
	return sum
}

func (k *gaussianKernel) Forward(out []float64, in [][]float64) {
	total := 0.0
	for r := 0; r < k.n; r++ {
		if w := in[3][r]; w != 0 {
			lo, hi := r*k.s, (r+1)*k.s
			total += w * k.row(in[0][lo:hi], in[1][lo:hi], in[2][lo:hi])
		}
	}
	out[0] = total / float64(k.s)
}

func (k *gaussianKernel) Backward(din [][]float64, dout []float64, in [][]float64) {
	g := dout[0] / float64(k.s)
	for r := 0; r < k.n; r++ {
		lo, hi := r*k.s, (r+1)*k.s
		h, mu, a := in[0][lo:hi], in[1][lo:hi], in[2][lo:hi]
		din[3][r] = g * k.row(h, mu, a)
		c := g * in[3][r]
		if c == 0 {
			continue
		}
		dh, dmu, da := din[0][lo:hi], din[1][lo:hi], din[2][lo:hi]
		for j := range h {
			d := h[j] - mu[j]
			v := softplus(a[j]) + 1e-3
			dh[j] = -c * d / v
			dmu[j] = -dh[j]
			da[j] = c * (d*d/v - 1) / (2 * v) / (1 + math.Exp(-a[j]))
		}
	}
}
