package strode

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
)

// KLTerm is kl.Term(b.Density(nodes, bz), p) — the KL term of the posterior
// q(t | z) against the prior density row p (1×(K−1)), one value per row of
// bz (R×1) — as one fused graph node with a hand-written reverse pass. The
// graph form builds about 130 nodes with their gradients for arithmetic on
// R×(K−1) values.
func (b *Boundary) KLTerm(n *nn.Net, kl *KL, bz, p *autodiff.Node) *autodiff.Node {
	k := &klTerm{eps: kl.Eps, t: kl.nodes, w: kl.w}
	return n.Fused("kl-term", k, bz, p, n.P(b.W1), n.P(b.W2), n.P(b.W3))
}

// klTerm is the kernel of Boundary.KLTerm. At each node t_k (weight
// w_k = e^{t_k}), as Boundary.A and Boundary.Density write it:
//
//	u = t_k·W1, h = tanh(u·W2), a_k = h·W3, a'_k = ((1 − h²) ⊙ W1·W2)·W3,
//	c_k = −a'_k/t_k,  s = σ(bz_r + a_k),  q_rk = s·c_k,
//	G_rk = q_rk·w_k·(log(q_rk + δ) − log(p_k + δ)),  δ = 1e-6,
//	term_r = ε·(Σ_k G_rk + |G_r,K−1|).
//
// Reverse, with d G_rk = ε·d term_r·(1 + [k = K−1]·sign G_r,K−1):
// d q = d G·w·(log(q + δ) − log(p + δ) + q/(q + δ)), d p_k = −Σ_r d G·q·w/(p + δ),
// d c_k = Σ_r d q·s, d(bz + a) = d q·c·s(1 − s), d a'_k = −d c_k/t_k, and
// through a and a' to W1, W2, W3 as in priorDensity.
type klTerm struct {
	eps  float64
	t, w []float64
	// per node: h, a, a', c; per row and node: s, q
	hs, g            []float64
	a, da, coef      []float64
	s, q, logq, logp []float64
	// scratch
	dA, dDA, dCoef, dg, dv []float64
	zero                   []float64 // Φ's a(t) has no biases
}

func (k *klTerm) Shape(in [][2]int) (int, int, error) {
	if len(in) != 5 {
		return 0, 0, fmt.Errorf("kl-term: %d inputs, want 5", len(in))
	}
	r, nk, h := in[0][0], len(k.t), in[2][1]
	want := [][2]int{{r, 1}, {1, nk}, {1, h}, {h, h}, {h, 1}}
	for i, w := range want {
		if in[i] != w {
			return 0, 0, fmt.Errorf("kl-term: input %d is %v, want %v", i, in[i], w)
		}
	}
	return r, 1, nil
}

func (k *klTerm) Forward(out []float64, in [][]float64) {
	bz, p, w1, w2, w3 := in[0], in[1], in[2], in[3], in[4]
	r, nk, hn := len(bz), len(k.t), len(w1)
	if len(k.s) != r*nk || len(k.g) != hn {
		k.hs, k.g = make([]float64, nk*hn), make([]float64, hn)
		k.a, k.da, k.coef, k.logp = make([]float64, nk), make([]float64, nk), make([]float64, nk), make([]float64, nk)
		k.s, k.q, k.logq = make([]float64, r*nk), make([]float64, r*nk), make([]float64, r*nk)
		k.dA, k.dDA, k.dCoef = make([]float64, nk), make([]float64, nk), make([]float64, nk)
		k.dg, k.dv, k.zero = make([]float64, hn), make([]float64, hn), make([]float64, hn)
	}
	for j := range k.g {
		s := 0.0
		for q := 0; q < hn; q++ {
			s += w1[q] * w2[q*hn+j]
		}
		k.g[j] = s
	}
	for i, t := range k.t {
		h := k.hs[i*hn : (i+1)*hn]
		hidden(h, t, w1, k.zero, w2, k.zero)
		a, da := 0.0, 0.0
		for j, v := range h {
			a += v * w3[j]
			da += (1 - v*v) * k.g[j] * w3[j]
		}
		k.a[i], k.da[i], k.coef[i] = a, da, -da/t
		k.logp[i] = math.Log(p[i] + logGuard)
	}
	for row := 0; row < r; row++ {
		sum, last := 0.0, 0.0
		for i := 0; i < nk; i++ {
			x := row*nk + i
			s := sigmoid(bz[row] + k.a[i])
			q := s * k.coef[i]
			k.s[x], k.q[x] = s, q
			k.logq[x] = math.Log(q + logGuard)
			last = q * k.w[i] * (k.logq[x] - k.logp[i])
			sum += last
		}
		out[row] = k.eps * (sum + math.Abs(last))
	}
}

func (k *klTerm) Backward(din [][]float64, dout []float64, in [][]float64) {
	bz, p, w1, w2, w3 := in[0], in[1], in[2], in[3], in[4]
	dbz, dp, dw1, dw2, dw3 := din[0], din[1], din[2], din[3], din[4]
	r, nk, hn := len(bz), len(k.t), len(w1)
	dA, dDA, dCoef := k.dA, k.dDA, k.dCoef
	clear(dA)
	clear(dCoef)
	for row := 0; row < r; row++ {
		lastX := row*nk + nk - 1
		gLast := k.q[lastX] * k.w[nk-1] * (k.logq[lastX] - k.logp[nk-1])
		sign := 0.0
		if gLast > 0 {
			sign = 1
		} else if gLast < 0 {
			sign = -1
		}
		for i := 0; i < nk; i++ {
			x := row*nk + i
			dG := k.eps * dout[row]
			if i == nk-1 {
				dG += k.eps * dout[row] * sign
			}
			q, s := k.q[x], k.s[x]
			dq := dG * k.w[i] * (k.logq[x] - k.logp[i] + q/(q+logGuard))
			dp[i] -= dG * q * k.w[i] / (p[i] + logGuard)
			dCoef[i] += dq * s
			dpre := dq * k.coef[i] * s * (1 - s)
			dbz[row] += dpre
			dA[i] += dpre
		}
	}
	dg, dv := k.dg, k.dv
	clear(dg)
	for i, t := range k.t {
		h := k.hs[i*hn : (i+1)*hn]
		dDA[i] = -dCoef[i] / t
		for j, v := range h {
			om := 1 - v*v
			dw3[j] += v*dA[i] + om*k.g[j]*dDA[i]
			dg[j] += om * w3[j] * dDA[i]
			dh := w3[j]*dA[i] - 2*v*k.g[j]*w3[j]*dDA[i]
			dv[j] = dh * om
		}
		// v = (t·W1)·W2
		for q := 0; q < hn; q++ {
			u := t * w1[q]
			row := w2[q*hn : (q+1)*hn]
			drow := dw2[q*hn : (q+1)*hn]
			du := 0.0
			for j, x := range dv {
				drow[j] += u * x
				du += x * row[j]
			}
			dw1[q] += t * du
		}
	}
	addProductGrad(dg, w1, w2, dw1, dw2) // g = W1·W2
}

// addProductGrad adds the gradients of g = a·B (a of length n, B n × n row
// major) given dg: da += B·dg, dB += a ⊗ dg.
func addProductGrad(dg, a, b, da, db []float64) {
	n := len(a)
	for q := 0; q < n; q++ {
		row := b[q*n : (q+1)*n]
		drow := db[q*n : (q+1)*n]
		s := 0.0
		for j, x := range dg {
			s += x * row[j]
			drow[j] += a[q] * x
		}
		da[q] += s
	}
}
