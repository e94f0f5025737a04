package strode

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
)

// DensityFused is Density — p(t) = λ(t)·e^{−φ(t)} at the fixed times nodes,
// a 1×len row — as one fused graph node with a hand-written reverse pass.
// The graph form builds about a hundred nodes (c and c' at the nodes, c(0),
// φ, λ and their gradients) for a few hundred multiply-adds.
func (p *Prior) DensityFused(n *nn.Net, nodes []float64) *autodiff.Node {
	k := &priorDensity{t: append([]float64(nil), nodes...)}
	return n.Fused("prior-density", k, n.P(p.U1), n.P(p.B1), n.P(p.U2), n.P(p.B2), n.P(p.U3), n.P(p.Rho), n.P(p.D))
}

// priorDensity is the kernel of DensityFused. At each node t (H hidden):
//
//	w = t·U1 + β1,  v = w·U2 + β2,  h = tanh(v),  c = h·U3,
//	g = U1·U2,  c' = ((1 − h²) ⊙ g)·U3,
//	φ = sp(ρ)·t + sp(c + d) − sp(c0 + d),  λ = sp(ρ) + σ(c + d)·c',
//	p = λ·e^{−φ},
//
// with c0 = c at t = 0, sp = softplus and σ its derivative (gorgonia's
// formulas). Reverse: d λ = d p·e^{−φ}, d φ = −d p·p; then through sp, σ
// (σ' = σ(1 − σ)), c' (d g, d U3, and d h = −2h ⊙ g ⊙ U3·d c'), tanh, and
// the two products, as Backward writes it line by line.
type priorDensity struct {
	t []float64
	// per node: h, and the scalars c, c', φ, p; c0's h
	hs               []float64
	c, dc, phi, dens []float64
	h0, g, dg, dv    []float64
	c0               float64
}

func (k *priorDensity) Shape(in [][2]int) (int, int, error) {
	if len(in) != 7 {
		return 0, 0, fmt.Errorf("prior-density: %d inputs, want 7", len(in))
	}
	h := in[0][1]
	want := [][2]int{{1, h}, {1, h}, {h, h}, {1, h}, {h, 1}, {1, 1}, {1, 1}}
	for i, w := range want {
		if in[i] != w {
			return 0, 0, fmt.Errorf("prior-density: input %d is %v, want %v", i, in[i], w)
		}
	}
	return 1, len(k.t), nil
}

// hidden is h = tanh((t·U1 + β1)·U2 + β2) into out.
func hidden(out []float64, t float64, u1, b1, u2, b2 []float64) {
	hn := len(u1)
	for j := range out {
		v := b2[j]
		for q := 0; q < hn; q++ {
			v += (t*u1[q] + b1[q]) * u2[q*hn+j]
		}
		out[j] = math.Tanh(v)
	}
}

func (k *priorDensity) Forward(out []float64, in [][]float64) {
	u1, b1, u2, b2, u3, rho, d := in[0], in[1], in[2], in[3], in[4], in[5][0], in[6][0]
	hn, nk := len(u1), len(k.t)
	if len(k.hs) != nk*hn {
		k.hs, k.h0, k.g = make([]float64, nk*hn), make([]float64, hn), make([]float64, hn)
		k.dg, k.dv = make([]float64, hn), make([]float64, hn)
		k.c, k.dc, k.phi, k.dens = make([]float64, nk), make([]float64, nk), make([]float64, nk), make([]float64, nk)
	}
	for j := range k.g {
		s := 0.0
		for q := 0; q < hn; q++ {
			s += u1[q] * u2[q*hn+j]
		}
		k.g[j] = s
	}
	hidden(k.h0, 0, u1, b1, u2, b2)
	k.c0 = 0
	for j, v := range k.h0 {
		k.c0 += v * u3[j]
	}
	base := softplus(rho)
	sp0 := softplus(k.c0 + d)
	for i, t := range k.t {
		h := k.hs[i*hn : (i+1)*hn]
		hidden(h, t, u1, b1, u2, b2)
		c, dc := 0.0, 0.0
		for j, v := range h {
			c += v * u3[j]
			dc += (1 - v*v) * k.g[j] * u3[j]
		}
		k.c[i], k.dc[i] = c, dc
		k.phi[i] = base*t + softplus(c+d) - sp0
		lambda := base + sigmoid(c+d)*dc
		k.dens[i] = lambda * math.Exp(-k.phi[i])
		out[i] = k.dens[i]
	}
}

func (k *priorDensity) Backward(din [][]float64, dout []float64, in [][]float64) {
	u1, b1, u2, u3, rho, d := in[0], in[1], in[2], in[4], in[5][0], in[6][0]
	du1, db1, du2, db2, du3, drho, dd := din[0], din[1], din[2], din[3], din[4], din[5], din[6]
	hn := len(u1)
	dg, dv := k.dg, k.dv
	clear(dg)
	sRho := sigmoid(rho)
	dc0 := 0.0
	for i, t := range k.t {
		h := k.hs[i*hn : (i+1)*hn]
		dLambda := dout[i] * math.Exp(-k.phi[i])
		dPhi := -dout[i] * k.dens[i]
		// φ = sp(ρ)·t + sp(c + d) − sp(c0 + d); λ = sp(ρ) + σ(c + d)·c'
		drho[0] += sRho * (dPhi*t + dLambda)
		sc := sigmoid(k.c[i] + d)
		dcd := dPhi*sc + dLambda*k.dc[i]*sc*(1-sc)
		dd[0] += dcd
		dc0 -= dPhi * sigmoid(k.c0+d)
		dcp := dLambda * sc // d c'
		// c = h·U3, c' = ((1 − h²) ⊙ g)·U3
		for j, v := range h {
			om := 1 - v*v
			du3[j] += v*dcd + om*k.g[j]*dcp
			dg[j] += om * u3[j] * dcp
			dh := u3[j]*dcd - 2*v*k.g[j]*u3[j]*dcp
			dv[j] = dh * om
		}
		k.backHidden(dv, t, u1, b1, u2, du1, db1, du2, db2)
	}
	// −sp(c0 + d): dc0 already holds −Σ dφ·σ(c0 + d)
	dd[0] += dc0
	for j, v := range k.h0 {
		du3[j] += v * dc0
		dv[j] = dc0 * u3[j] * (1 - v*v)
	}
	k.backHidden(dv, 0, u1, b1, u2, du1, db1, du2, db2)
	addProductGrad(dg, u1, u2, du1, du2) // g = U1·U2
}

// backHidden adds the gradients of h = tanh((t·U1 + β1)·U2 + β2) given
// dv = d cost/d v (pre-activation).
func (k *priorDensity) backHidden(dv []float64, t float64, u1, b1, u2, du1, db1, du2, db2 []float64) {
	hn := len(u1)
	for q := 0; q < hn; q++ {
		w := t*u1[q] + b1[q]
		row := u2[q*hn : (q+1)*hn]
		drow := du2[q*hn : (q+1)*hn]
		dw := 0.0
		for j, x := range dv {
			drow[j] += w * x
			dw += x * row[j]
		}
		db1[q] += dw
		du1[q] += t * dw
	}
	for j, x := range dv {
		db2[j] += x
	}
}
