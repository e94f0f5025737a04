package strodehead

import (
	"fmt"
	"github.com/strode-asr/strode/internal/f32"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/internal/gemm"
)

// entry is the two things the STRODE head computes from the encoder's
// output e (N×H) — the ODE's start h0 = e·P (N×S) and Φ's b(z) (N×1) — as
// one float32 node (headIn) whose output [h0 | b(z)] the graph splits by
// columns. Both begin with a product of e: as separate nodes (e·P, and
// b(z)'s first layer e·V1 with the rest of its MLP after it) e was narrowed
// to float32 twice, two thin products (S and h columns) ran where one of
// S + h does the work at a better rate, and two N×H gradients of e were
// widened and added in float64. The gradient checks (sru.Float32Products
// off) build e·P and boundaryZ from graph operations instead.
//
// With e32 (the SRU stack's own float32 output, sru.Output32) the kernel
// reads e from there instead of narrowing the graph's float64 copy.
func (hd *Head) entry(net *nn.Net, e *autodiff.Node, e32 sru.Output32) (h0, bz *autodiff.Node, err error) {
	if !sru.Float32Products {
		if bz, err = hd.boundaryZ(net, e); err != nil {
			return nil, nil, err
		}
		h0, err = sru.MatMul(net, e, net.P(hd.Proj))
		return h0, bz, err
	}
	k := &headIn{e32: e32}
	in := []*autodiff.Node{e, net.P(hd.Proj)}
	if hd.PhiZ[0] != nil { // free: tanh(tanh(e·A0 + c0)·A1 + c1)·A2 + c2
		for i, l := range hd.PhiZ {
			in = append(in, net.P(l.W), net.P(l.B))
			k.bias[i] = true
		}
		k.tanh = [2]bool{true, true}
	} else { // nonpos: tanh(e·V1·V2)·V3
		in = append(in, net.P(hd.Boundary.V1), net.P(hd.Boundary.V2), net.P(hd.Boundary.V3))
		k.tanh = [2]bool{false, true}
	}
	out := net.Fused("head-in", k, in...)
	if err := net.Err(); err != nil {
		return nil, nil, err
	}
	s := hd.Cfg.State
	return net.Columns(out, 0, s), net.Columns(out, s, s+1), net.Err()
}

// headIn is entry's kernel. Inputs: e (N×H), P (H×S), then b(z)'s three
// layers, each its weight and, where bias[i], its 1×cols bias: L0 (H×h),
// L1 (h×h), L2 (h×1). Forward, in float32:
//
//	[h0 | u] = e·[P | L0] + [0 | c0],  u0 = act0(u),
//	u1 = tanh(u0·L1 + c1),  b = u1·L2 + c2,
//
// act0 being tanh (free) or the identity (nonpos), absent biases zero. The
// output is [h0 | b] (N×(S+1)). Reverse: db through L2, tanh' = 1 − u1²,
// L1, act0', and the first product as one: d[P | L0] = eᵀ·[dh0 | du] and
// de = [dh0 | du]·[P | L0]ᵀ; bias gradients summed in float64.
type headIn struct {
	e32            sru.Output32 // e in float32 (nil: narrow the input into ex)
	bias           [3]bool
	tanh           [2]bool // act0, act1
	n, hIn, s, h   int
	ex, wcat, bcat []float32 // e, [P | L0] (H×(S+h)), [0 | c0]
	w1, b1, w2, b2 []float32
	y, u0, u1, b   []float32 // [h0 | u] (N×(S+h)), u0, u1 (N×h), b (N×1)
	dy, du1, db    []float32
	dwcat, dw1, de []float32
	dw2            []float32
}

func (k *headIn) Shape(in [][2]int) (int, int, error) {
	want := 5
	for _, b := range k.bias {
		if b {
			want++
		}
	}
	if len(in) != want {
		return 0, 0, fmt.Errorf("strodehead: head-in of %d inputs, want %d", len(in), want)
	}
	n, hIn, s := in[0][0], in[0][1], in[1][1]
	h := in[2][1]
	shapes := [][2]int{{n, hIn}, {hIn, s}}
	for i, l := range [][2]int{{hIn, h}, {h, h}, {h, 1}} {
		shapes = append(shapes, l)
		if k.bias[i] {
			shapes = append(shapes, [2]int{1, l[1]})
		}
	}
	for i, w := range shapes {
		if in[i] != w {
			return 0, 0, fmt.Errorf("strodehead: head-in input %d is %v, want %v (inputs %v)", i, in[i], w, in)
		}
	}
	k.n, k.hIn, k.s, k.h = n, hIn, s, h
	f := func(c int) []float32 { return make([]float32, c) }
	sh := s + h
	k.wcat, k.bcat = f(hIn*sh), f(sh)
	if k.e32 == nil {
		k.ex = f(n * hIn)
	}
	k.w1, k.b1, k.w2, k.b2 = f(h*h), f(h), f(h), f(1)
	k.y, k.u0, k.u1, k.b = f(n*sh), f(n*h), f(n*h), f(n)
	k.dy, k.du1, k.db = f(n*sh), f(n*h), f(n)
	k.dwcat, k.dw1, k.de, k.dw2 = f(hIn*sh), f(h*h), f(n*hIn), f(h)
	return n, s + 1, nil
}

// layers splits the inputs after e and P (or their gradients, laid out the
// same) into the three layers' weights and biases (nil where absent).
func (k *headIn) layers(in [][]float64) (w, b [3][]float64) {
	i := 2
	for l := range 3 {
		w[l] = in[i]
		i++
		if k.bias[l] {
			b[l] = in[i]
			i++
		}
	}
	return w, b
}

func (k *headIn) Forward(out []float64, in [][]float64) {
	n, hIn, s, h := k.n, k.hIn, k.s, k.h
	sh := s + h
	w, b := k.layers(in)
	if k.e32 != nil {
		k.ex = k.e32()[:n*hIn]
	} else {
		f32.Narrow(k.ex, in[0])
	}
	for i := 0; i < hIn; i++ {
		f32.Narrow(k.wcat[i*sh:i*sh+s], in[1][i*s:(i+1)*s])
		f32.Narrow(k.wcat[i*sh+s:(i+1)*sh], w[0][i*h:(i+1)*h])
	}
	clear(k.bcat)
	clear(k.b1)
	clear(k.b2)
	if b[0] != nil {
		f32.Narrow(k.bcat[s:], b[0])
	}
	if b[1] != nil {
		f32.Narrow(k.b1, b[1])
	}
	if b[2] != nil {
		f32.Narrow(k.b2, b[2])
	}
	f32.Narrow(k.w1, w[1])
	f32.Narrow(k.w2, w[2])
	f32.FillRows(k.y, k.bcat)
	gemm.Sgemm(false, false, n, sh, hIn, 1, k.ex, hIn, k.wcat, sh, 1, k.y, sh)
	for r := 0; r < n; r++ {
		copy(k.u0[r*h:(r+1)*h], k.y[r*sh+s:(r+1)*sh])
	}
	if k.tanh[0] {
		sru.TanhInPlace(k.u0)
	}
	f32.FillRows(k.u1, k.b1)
	gemm.Sgemm(false, false, n, h, h, 1, k.u0, h, k.w1, h, 1, k.u1, h)
	if k.tanh[1] {
		sru.TanhInPlace(k.u1)
	}
	f32.FillRows(k.b, k.b2)
	gemm.Sgemm(false, false, n, 1, h, 1, k.u1, h, k.w2, 1, 1, k.b, 1)
	for r := 0; r < n; r++ {
		o := out[r*(s+1) : (r+1)*(s+1)]
		f32.Widen(o[:s], k.y[r*sh:r*sh+s])
		o[s] = float64(k.b[r])
	}
}

func (k *headIn) Backward(din [][]float64, dout []float64, in [][]float64) {
	n, hIn, s, h := k.n, k.hIn, k.s, k.h
	sh := s + h
	dw, dbias := k.layers(din) // din's slots, laid out as in
	for r := 0; r < n; r++ {
		o := dout[r*(s+1) : (r+1)*(s+1)]
		f32.Narrow(k.dy[r*sh:r*sh+s], o[:s])
		k.db[r] = float32(o[s])
	}
	// b = u1·L2 + c2
	gemm.Sgemm(true, false, h, 1, n, 1, k.u1, h, k.db, 1, 0, k.dw2, 1)
	f32.Widen(dw[2], k.dw2)
	if dbias[2] != nil {
		columnSums(dbias[2], nil, k.db, 1)
	}
	gemm.Sgemm(false, true, n, h, 1, 1, k.db, 1, k.w2, 1, 0, k.du1, h)
	if k.tanh[1] {
		for i, y := range k.u1 {
			k.du1[i] *= 1 - y*y
		}
	}
	// u1 = act1(u0·L1 + c1); du0 goes straight into dy's u columns
	gemm.Sgemm(true, false, h, h, n, 1, k.u0, h, k.du1, h, 0, k.dw1, h)
	f32.Widen(dw[1], k.dw1)
	if dbias[1] != nil {
		columnSums(dbias[1], nil, k.du1, h)
	}
	gemm.Sgemm(false, true, n, h, h, 1, k.du1, h, k.w1, h, 0, k.dy[s:], sh)
	if k.tanh[0] {
		for r := 0; r < n; r++ {
			du := k.dy[r*sh+s : (r+1)*sh]
			for j, y := range k.u0[r*h : (r+1)*h] {
				du[j] *= 1 - y*y
			}
		}
	}
	// [h0 | u] = e·[P | L0] + [0 | c0]
	gemm.Sgemm(true, false, hIn, sh, n, 1, k.ex, hIn, k.dy, sh, 0, k.dwcat, sh)
	for i := 0; i < hIn; i++ {
		f32.Widen(din[1][i*s:(i+1)*s], k.dwcat[i*sh:i*sh+s])
		f32.Widen(dw[0][i*h:(i+1)*h], k.dwcat[i*sh+s:(i+1)*sh])
	}
	if dbias[0] != nil {
		for r := 0; r < n; r++ {
			for j, v := range k.dy[r*sh+s : (r+1)*sh] {
				dbias[0][j] += float64(v)
			}
		}
	}
	gemm.Sgemm(false, true, n, hIn, sh, 1, k.dy, sh, k.wcat, sh, 0, k.de, hIn)
	f32.Widen(din[0], k.de)
}
