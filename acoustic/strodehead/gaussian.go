package strodehead

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/sru"
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
// (softplus' = the logistic σ). The weights are the frames' mask, not
// trained: their gradient is left at zero. The forward pass keeps v and
// σ(a) (one exp, one log1p and one log per value) for the reverse pass,
// which then needs none; rows of weight zero (padding) are skipped.
type gaussianKernel struct {
	n, s     int
	v, sigma []float64
}

func (k *gaussianKernel) Shape(in [][2]int) (rows, cols int, err error) {
	if len(in) != 4 || in[1] != in[0] || in[2] != in[0] || in[3] != [2]int{in[0][0], 1} {
		return 0, 0, fmt.Errorf("strodehead: gaussian log-likelihood of %v", in)
	}
	k.n, k.s = in[0][0], in[0][1]
	k.v, k.sigma = make([]float64, k.n*k.s), make([]float64, k.n*k.s)
	return 1, 1, nil
}

func (k *gaussianKernel) Forward(out []float64, in [][]float64) {
	total := 0.0
	for r := 0; r < k.n; r++ {
		w := in[3][r]
		if w == 0 {
			continue
		}
		sum := 0.0
		for i := r * k.s; i < (r+1)*k.s; i++ {
			a := in[2][i]
			// softplus(a) = max(a, 0) + log1p(e^−|a|) without overflow;
			// σ(a) from the same exponential.
			e := math.Exp(-math.Abs(a))
			v := math.Max(a, 0) + math.Log1p(e) + 1e-3
			k.sigma[i] = 1 / (1 + e)
			if a < 0 {
				k.sigma[i] = e / (1 + e)
			}
			k.v[i] = v
			d := in[0][i] - in[1][i]
			sum += -halfLog2Pi - 0.5*math.Log(v) - d*d/(2*v)
		}
		total += w * sum
	}
	out[0] = total / float64(k.s)
}

func (k *gaussianKernel) Backward(din [][]float64, dout []float64, in [][]float64) {
	g := dout[0] / float64(k.s)
	for r := 0; r < k.n; r++ {
		c := g * in[3][r]
		if c == 0 {
			continue
		}
		for i := r * k.s; i < (r+1)*k.s; i++ {
			d, v := in[0][i]-in[1][i], k.v[i]
			dh := -c * d / v
			din[0][i], din[1][i] = dh, -dh
			din[2][i] = c * (d*d/v - 1) / (2 * v) * k.sigma[i]
		}
	}
}

// KLRows is the KL term of Theorem 1 per frame (N×1) for the boundary's
// b(z) column bz: the posterior density at the quadrature nodes against the
// prior's. In training it is strode's two fused kernels (Boundary.KLTerm
// and Prior.DensityFused, float64, each checked against the graph form and
// by finite differences), which replace about 230 graph nodes over N×(K−1)
// values; the gradient checks (sru.Float32Products off) build the graph form.
func (hd *Head) KLRows(net *nn.Net, bz *autodiff.Node) *autodiff.Node {
	nodes := hd.kl.Nodes()
	if sru.Float32Products {
		return hd.Boundary.KLTerm(net, hd.kl, bz, hd.Prior.DensityFused(net, nodes))
	}
	return hd.kl.Term(net.Graph, hd.Boundary.Density(net, nodes, bz), hd.Prior.Density(net, nodes))
}
