package strodehead

import (
	"fmt"
	"github.com/strode-asr/strode/internal/f32"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/internal/gemm"
)

// PriorLogLik is the regenerative term of gaussianLogLik with the prior
// network that gives μ and a from the next frame's input x' in the same
// node: hid = tanh(x'·W_in + b_in), [μ | a] = hid·[W_μ | W_σ] + [b_μ | b_σ],
// then (1/S)·Σ_j log N(h̃_j; μ_j, softplus(a_j) + 1e-3) per frame, weighted
// by w, all in float32 (priorGaussian32). As three fused layers and the
// float64 Gaussian kernel, μ, a and the hidden layer crossed between float32
// and float64 six times a minibatch, and the Gaussian's exp, log1p and log
// ran as scalar float64 calls: at the small preset that was a sixth of the
// head's time. The gradient checks (sru.Float32Products off) build the
// float64 layers and gaussianLogLik instead.
func (hd *Head) PriorLogLik(net *nn.Net, htilde, xnext, w *autodiff.Node) *autodiff.Node {
	if !sru.Float32Products {
		hid := linearAct(net, hd.PriorIn, xnext, sru.ActTanh)
		return gaussianLogLik(net, htilde, linear(net, hd.PriorMu, hid), linear(net, hd.PriorVar, hid), w)
	}
	in, mu, v := hd.PriorIn, hd.PriorMu, hd.PriorVar
	k := &priorGaussian32{}
	return net.Sum(net.Fused("prior+gaussian", k, htilde, xnext, net.P(in.W), net.P(in.B),
		net.P(mu.W), net.P(mu.B), net.P(v.W), net.P(v.B), w))
}

// gaussRowBlock is how many rows priorGaussian32 takes through its
// elementwise passes at a time: 64 rows of S = 64 values are 16 KB an array.
const gaussRowBlock = 64

// priorGaussian32 is PriorLogLik's kernel. Inputs: h̃ (N×S), x' (N×D),
// W_in (D×H), b_in, W_μ (H×S), b_μ, W_σ (H×S), b_σ, w (N×1); output 1×1.
// Per value, with d = h̃ − μ, e = e^{−|a|}, v = max(a, 0) + log1p(e) + 1e-3
// and σ(a) from the same e, log N = −½ log 2π − ½ log v − ½d²·(1/v) (the
// exponentials and logarithms eight at a time: sru.ExpInPlace, about 2 ulp,
// and sru.LogInPlace, about 1 ulp; with u = 1 + e, log1p(e) = log u −
// ((u − 1) − e)/u, log u corrected by u's rounding error, which gives e
// where u rounds to 1; two divisions a value, 1/u and 1/v, and no branch).
// Row sums are accumulated in float64. Reverse, with c_r = g·w_r/S:
// dh̃ = −c·d/v, dμ = −dh̃, da = c·(d²/v − 1)/(2v)·σ(a) (1/v kept from the
// forward pass: no division), then the two layers' products in
// float32 (bias gradients summed in float64). x' and w are data: their
// gradients stay zero.
type priorGaussian32 struct {
	n, s, d, h int
	// float32 copies of the latest Forward's inputs; wcat = [W_μ | W_σ]
	// (H×2S) and bcat its bias, so that μ and a are one product
	x, hs, win, bin, wcat, bcat []float32
	hid, o2                     []float32 // tanh layer (N×H); [μ | a] (N×2S)
	iv, sig                     []float32 // per value: 1/v and σ(a), kept for the reverse pass
	lv                          []float32 // scratch: e, then v and log v
	dcat, dhid, dwcat, dwin     []float32
}

func (k *priorGaussian32) Shape(in [][2]int) (int, int, error) {
	if len(in) != 9 {
		return 0, 0, fmt.Errorf("strodehead: prior+gaussian of %d inputs, want 9", len(in))
	}
	n, s, d, h := in[0][0], in[0][1], in[1][1], in[2][1]
	want := [][2]int{{n, s}, {n, d}, {d, h}, {1, h}, {h, s}, {1, s}, {h, s}, {1, s}, {n, 1}}
	for i, w := range want {
		if in[i] != w {
			return 0, 0, fmt.Errorf("strodehead: prior+gaussian input %d is %v, want %v (inputs %v)", i, in[i], w, in)
		}
	}
	k.n, k.s, k.d, k.h = n, s, d, h
	f := func(c int) []float32 { return make([]float32, c) }
	k.x, k.hs, k.win, k.bin, k.wcat, k.bcat = f(n*d), f(n*s), f(d*h), f(h), f(h*2*s), f(2*s)
	k.hid, k.o2, k.iv, k.sig, k.lv = f(n*h), f(n*2*s), f(n*s), f(n*s), f(n*s)
	k.dcat, k.dhid, k.dwcat, k.dwin = f(n*2*s), f(n*h), f(h*2*s), f(d*h)
	return 1, 1, nil
}

func (k *priorGaussian32) Forward(out []float64, in [][]float64) {
	n, s, d, h, s2 := k.n, k.s, k.d, k.h, 2*k.s
	f32.Narrow(k.hs, in[0])
	f32.Narrow(k.x, in[1])
	f32.Narrow(k.win, in[2])
	f32.Narrow(k.bin, in[3])
	for i := 0; i < h; i++ {
		f32.Narrow(k.wcat[i*s2:i*s2+s], in[4][i*s:(i+1)*s])
		f32.Narrow(k.wcat[i*s2+s:(i+1)*s2], in[6][i*s:(i+1)*s])
	}
	f32.Narrow(k.bcat[:s], in[5])
	f32.Narrow(k.bcat[s:], in[7])
	f32.FillRows(k.hid, k.bin)
	gemm.Sgemm(false, false, n, h, d, 1, k.x, d, k.win, h, 1, k.hid, h)
	sru.TanhInPlace(k.hid)
	f32.FillRows(k.o2, k.bcat)
	gemm.Sgemm(false, false, n, s2, h, 1, k.hid, h, k.wcat, s2, 1, k.o2, s2)
	// Per block of rows (its values stay in cache through the passes):
	// e = e^{−|a|}, log(1 + e), then v — kept as 1/v, all the rest needs —
	// σ(a), log v and the rows' sums.
	total := 0.0
	for r0 := 0; r0 < n; r0 += gaussRowBlock {
		r1 := min(r0+gaussRowBlock, n)
		e, l := k.lv[r0*s:r1*s], k.iv[r0*s:r1*s]
		for r := r0; r < r1; r++ {
			for j, a := range k.o2[r*s2+s : (r+1)*s2] {
				e[(r-r0)*s+j] = -abs32(a)
			}
		}
		sru.ExpInPlace(e)
		for i, ei := range e {
			l[i] = 1 + ei
		}
		sru.LogInPlace(l) // log(1 + e), for log1p(e)
		for r := r0; r < r1; r++ {
			sig := k.sig[r*s : (r+1)*s]
			for j, a := range k.o2[r*s2+s : (r+1)*s2] {
				i := (r-r0)*s + j
				ei := e[i]
				u := 1 + ei
				iu := 1 / u
				// log1p(e) = log u − ((u − 1) − e)/u: log u corrected by
				// u's rounding error (e where 1 + e rounds to 1).
				l1p := l[i] - ((u-1)-ei)*iu
				v := max(a, 0) + l1p + 1e-3
				l[i], e[i] = 1/v, v
				// σ(a) = 1/u for a ≥ 0, e/u below: the sign bit picks.
				neg := uint32(int32(math.Float32bits(a)) >> 31)
				sig[j] = math.Float32frombits(math.Float32bits(ei)&neg|math.Float32bits(1)&^neg) * iu
			}
		}
		sru.LogInPlace(e) // log v
		for r := r0; r < r1; r++ {
			w := in[8][r]
			if w == 0 {
				continue
			}
			var sum float32
			for j, mu := range k.o2[r*s2 : r*s2+s] {
				i := (r-r0)*s + j
				dv := k.hs[r*s+j] - mu
				sum += -0.5*e[i] - 0.5*dv*dv*l[i]
			}
			total += w * (float64(sum) - float64(s)*halfLog2Pi)
		}
	}
	out[0] = total / float64(s)
}

func (k *priorGaussian32) Backward(din [][]float64, dout []float64, in [][]float64) {
	n, s, d, h, s2 := k.n, k.s, k.d, k.h, 2*k.s
	g := dout[0] / float64(s)
	dh := din[0]
	for r := 0; r < n; r++ {
		row := k.dcat[r*s2 : (r+1)*s2]
		c := float32(g * in[8][r])
		if c == 0 {
			clear(row)
			continue
		}
		for j, mu := range k.o2[r*s2 : r*s2+s] {
			i := r*s + j
			dv, iv := k.hs[i]-mu, k.iv[i]
			dhv := -c * dv * iv
			dh[i] = float64(dhv)
			row[j] = -dhv
			row[s+j] = c * (dv*dv*iv - 1) * (0.5 * iv) * k.sig[i]
		}
	}
	// [μ | a] = hid·wcat + bcat
	gemm.Sgemm(true, false, h, s2, n, 1, k.hid, h, k.dcat, s2, 0, k.dwcat, s2)
	for i := 0; i < h; i++ {
		f32.Widen(din[4][i*s:(i+1)*s], k.dwcat[i*s2:i*s2+s])
		f32.Widen(din[6][i*s:(i+1)*s], k.dwcat[i*s2+s:(i+1)*s2])
	}
	columnSums(din[5], din[7], k.dcat, s)
	gemm.Sgemm(false, true, n, h, s2, 1, k.dcat, s2, k.wcat, s2, 0, k.dhid, h)
	for i, y := range k.hid {
		k.dhid[i] *= 1 - y*y
	}
	// hid = tanh(x'·W_in + b_in)
	gemm.Sgemm(true, false, d, h, n, 1, k.x, d, k.dhid, h, 0, k.dwin, h)
	f32.Widen(din[2], k.dwin)
	columnSums(din[3], nil, k.dhid, h)
}

// columnSums adds the column sums of m (rows of width w, or of 2w when b
// is not nil) into a (the first w columns) and b (the next w), in float64.
func columnSums(a, b []float64, m []float32, w int) {
	stride := w
	if b != nil {
		stride = 2 * w
	}
	for r := 0; r < len(m); r += stride {
		for j, v := range m[r : r+w] {
			a[j] += float64(v)
		}
		if b != nil {
			for j, v := range m[r+w : r+2*w] {
				b[j] += float64(v)
			}
		}
	}
}

func abs32(x float32) float32 { return math.Float32frombits(math.Float32bits(x) &^ (1 << 31)) }
