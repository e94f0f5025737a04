package strode

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
)

// Gaps runs the boundary recurrence t_i = Φ(t_{i−1}, z_i) = sg(t_{i−1}) +
// softplus(a(t_{i−1}) + b(z_i)), t_0 = 0, for i = 1 … steps over a batch of
// b sequences, as one fused graph node: bz holds b(z_i) for i = 1 … steps,
// step-major ((steps·b)×1), and the result is the gaps t_i − t_{i−1}, in the
// same layout. It computes what a loop of Next does (Next builds about
// twenty graph nodes per step with their gradients, each paying gorgonia's
// per-node cost; the arithmetic is a few hundred multiply-adds per row).
func (b *Boundary) Gaps(n *nn.Net, bz *autodiff.Node, batch int) *autodiff.Node {
	k := &recurrence{batch: batch, FullGradient: b.FullGradient}
	return n.Fused("boundary-recurrence", k, bz, n.P(b.W1), n.P(b.W2), n.P(b.W3))
}

// recurrence is the kernel of Boundary.Gaps. Per step i and row s, with
// u = t·W1 (1×H), h = tanh(u·W2), a = h·W3, p = a + bz, gap = softplus(p):
//
//	d p = d gap·σ(p);  d bz = d p;  d W3 += hᵀ·d p;  d v = (d p·W3ᵀ) ⊙ (1 − h²);
//	d W2 += uᵀ·d v;  d u = d v·W2ᵀ;  d W1 += t·d u;  d t = d u·W1ᵀ,
//
// and d t joins the gradient of the previous gap (t_{i−1} = sg(t_{i−2}) +
// gap_{i−1}); with FullGradient (tests) sg is the identity and d t also flows on
// to t_{i−2}. softplus and σ are gorgonia's formulas.
type recurrence struct {
	batch        int
	FullGradient bool
	steps, h     int
	// per step and row: the time before the step, u and h
	ts     []float64
	us, hs []float64
	// scratch
	dt, dv, du []float64
}

func (k *recurrence) Shape(in [][2]int) (int, int, error) {
	if len(in) != 4 {
		return 0, 0, fmt.Errorf("boundary-recurrence: %d inputs, want 4", len(in))
	}
	rows, h := in[0][0], in[1][1]
	if k.batch < 1 || rows%k.batch != 0 || in[0][1] != 1 {
		return 0, 0, fmt.Errorf("boundary-recurrence: bz is %v, want (steps·%d)×1", in[0], k.batch)
	}
	want := [][2]int{{rows, 1}, {1, h}, {h, h}, {h, 1}}
	for i, w := range want {
		if in[i] != w {
			return 0, 0, fmt.Errorf("boundary-recurrence: input %d is %v, want %v", i, in[i], w)
		}
	}
	return rows, 1, nil
}

func softplus(x float64) float64 {
	if x < -708 {
		return 0
	}
	if x > 16 {
		return x
	}
	return math.Log1p(math.Exp(x))
}

func sigmoid(x float64) float64 { return 1 / (1 + math.Exp(-x)) }

func (k *recurrence) Forward(out []float64, in [][]float64) {
	bz, w1, w2, w3 := in[0], in[1], in[2], in[3]
	b, h := k.batch, len(w1)
	rows := len(bz)
	if len(k.ts) != rows || k.h != h {
		k.steps, k.h = rows/b, h
		k.ts = make([]float64, rows)
		k.us, k.hs = make([]float64, rows*h), make([]float64, rows*h)
		k.dt, k.dv, k.du = make([]float64, b), make([]float64, h), make([]float64, h)
	}
	t := k.dt // the running times, one per sequence
	clear(t)
	for r := 0; r < rows; r++ {
		s := r % b
		k.ts[r] = t[s]
		u, hv := k.us[r*h:(r+1)*h], k.hs[r*h:(r+1)*h]
		for j := range u {
			u[j] = t[s] * w1[j]
		}
		a := 0.0
		for j := range hv {
			v := 0.0
			for q, uq := range u {
				v += uq * w2[q*h+j]
			}
			hv[j] = math.Tanh(v)
			a += hv[j] * w3[j]
		}
		out[r] = softplus(a + bz[r])
		t[s] += out[r]
	}
}

func (k *recurrence) Backward(din [][]float64, dout []float64, in [][]float64) {
	bz, w1, w2, w3 := in[0], in[1], in[2], in[3]
	dbz, dw1, dw2, dw3 := din[0], din[1], din[2], din[3]
	b, h := k.batch, k.h
	dt, dv, du := k.dt, k.dv, k.du
	clear(dt) // d cost / d t_i of each sequence, from the steps after i
	for r := len(bz) - 1; r >= 0; r-- {
		s := r % b
		u, hv := k.us[r*h:(r+1)*h], k.hs[r*h:(r+1)*h]
		a := 0.0
		for j, v := range hv {
			a += v * w3[j]
		}
		dgap := dout[r] + dt[s] // t_i = sg(t_{i−1}) + gap_i
		dp := dgap * sigmoid(a+bz[r])
		dbz[r] = dp
		for j, v := range hv {
			dw3[j] += v * dp
			dv[j] = dp * w3[j] * (1 - v*v)
		}
		for q, uq := range u {
			acc := 0.0
			row := w2[q*h : (q+1)*h]
			dwr := dw2[q*h : (q+1)*h]
			for j, d := range dv {
				dwr[j] += uq * d
				acc += d * row[j]
			}
			du[q] = acc
		}
		dtPrev := 0.0
		for q, d := range du {
			dw1[q] += k.ts[r] * d
			dtPrev += d * w1[q]
		}
		if k.FullGradient {
			dt[s] += dtPrev
		} else {
			dt[s] = dtPrev
		}
	}
}
