package sru

import (
	"fmt"
	"math/rand"

	"github.com/strode-asr/strode/internal/gemm"
)

// stack is a whole SRU encoder as one graph.Kernel computing in float32:
// for every layer the product U = x·W through internal/gemm, the
// recurrence (forward32) and dropout, keeping what the reverse pass needs
// (each layer's input, U, c, f and r) in buffers reused from run to run.
// The reverse pass is the mirror image: backward32, then dW = xᵀ·dU and
// dx = dU·Wᵀ (+ the highway's part), then the dropout mask.
//
// Its inputs are x (N×In), the mask (N×1) and (W, weight_c, bias) per
// layer; its output is the last layer's h (N×H). The graph around it stays
// float64: x and the parameters are rounded to float32 on the way in, the
// output and the parameter gradients widened on the way out (O(N·H + #W)
// conversions against O(N·H·In) products). No gradient is computed for x,
// which is always the features.
type stack struct {
	shapes []Shape
	ins    []int // input size of every layer
	drop   *Dropout

	x       [][]float32 // x[l]: input of layer l (after the previous dropout)
	u       [][]float32 // N × K·H
	c, f, r [][]float32 // N × H
	w       [][]float32 // W in float32
	wc, b   [][]float32 // weight_c, bias in float32
	h       []float32   // the last layer's output

	dh, dx, du, dw []float32 // reverse-pass scratch
}

func newStack(e *Encoder, t, b int, drop *Dropout) *stack {
	s := &stack{drop: drop}
	n := t * b
	for _, l := range e.Layers {
		sh := Shape{T: t, B: b, H: l.Hidden, K: l.K(), Tanh: l.Tanh}
		s.shapes = append(s.shapes, sh)
		s.ins = append(s.ins, l.In)
		s.x = append(s.x, make([]float32, n*l.In))
		s.u = append(s.u, make([]float32, n*sh.K*sh.H))
		s.c = append(s.c, make([]float32, n*sh.H))
		s.f = append(s.f, make([]float32, n*sh.H))
		s.r = append(s.r, make([]float32, n*sh.H))
		s.w = append(s.w, make([]float32, l.In*sh.K*sh.H))
		s.wc = append(s.wc, make([]float32, 2*sh.H))
		s.b = append(s.b, make([]float32, 2*sh.H))
	}
	s.h = make([]float32, n*e.Opts.Hidden)
	return s
}

func (s *stack) Shape(in [][2]int) (rows, cols int, err error) {
	if len(in) != 2+3*len(s.shapes) {
		return 0, 0, fmt.Errorf("sru: stack of %d layers has %d inputs", len(s.shapes), len(in))
	}
	n := s.shapes[0].N()
	if in[0] != [2]int{n, s.ins[0]} || in[1] != [2]int{n, 1} {
		return 0, 0, fmt.Errorf("sru: stack inputs x %v and mask %v, want %d×%d and %d×1", in[0], in[1], n, s.ins[0], n)
	}
	for l, sh := range s.shapes {
		p := in[2+3*l:]
		if p[0] != [2]int{s.ins[l], sh.K * sh.H} || p[1] != [2]int{1, 2 * sh.H} || p[2] != [2]int{1, 2 * sh.H} {
			return 0, 0, fmt.Errorf("sru: layer %d parameters %v %v %v", l, p[0], p[1], p[2])
		}
	}
	return n, s.shapes[len(s.shapes)-1].H, nil
}

func narrow(dst []float32, src []float64) {
	_ = dst[len(src)-1]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

func widen(dst []float64, src []float32) {
	_ = dst[len(src)-1]
	for i, v := range src {
		dst[i] = float64(v)
	}
}

func (s *stack) Forward(out []float64, in [][]float64) {
	narrow(s.x[0], in[0])
	mask := in[1]
	last := len(s.shapes) - 1
	for l, sh := range s.shapes {
		p := in[2+3*l:]
		narrow(s.w[l], p[0])
		narrow(s.wc[l], p[1])
		narrow(s.b[l], p[2])
		kh := sh.K * sh.H
		gemm.Sgemm(false, false, sh.N(), kh, s.ins[l], 1, s.x[l], s.ins[l], s.w[l], kh, 0, s.u[l], kh)
		h := s.h
		if l < last {
			h = s.x[l+1]
		}
		sh.forward32(s.u[l], s.x[l], s.wc[l], s.b[l], mask, h, s.c[l], s.f[l], s.r[l])
		if l < last && s.drop != nil {
			m := s.drop.masks[l]
			for i := range h {
				h[i] *= m[i]
			}
		}
	}
	widen(out, s.h)
}

func (s *stack) Backward(din [][]float64, dout []float64, in [][]float64) {
	mask := in[1]
	if s.dh == nil {
		n, h := s.shapes[0].N(), s.shapes[0].H
		maxKH := 0
		maxW := 0
		for l, sh := range s.shapes {
			maxKH = max(maxKH, sh.K*sh.H)
			maxW = max(maxW, s.ins[l]*sh.K*sh.H)
		}
		s.dh, s.dx = make([]float32, n*h), make([]float32, n*h)
		s.du, s.dw = make([]float32, n*maxKH), make([]float32, maxW)
	}
	narrow(s.dh, dout)
	for l := len(s.shapes) - 1; l >= 0; l-- {
		sh := s.shapes[l]
		n, kh, inl := sh.N(), sh.K*sh.H, s.ins[l]
		d := din[2+3*l:]
		du := s.du[:n*kh]
		var dx []float32
		if sh.K == 3 {
			dx = s.dx[:n*sh.H]
		}
		sh.backward32(s.u[l], s.x[l], s.wc[l], mask, s.c[l], s.f[l], s.r[l], s.dh, du, dx, d[1], d[2])
		dw := s.dw[:inl*kh]
		gemm.Sgemm(true, false, inl, kh, n, 1, s.x[l], inl, du, kh, 0, dw, kh)
		widen(d[0], dw)
		if l == 0 {
			break
		}
		// dx = dU·Wᵀ, added to the highway's part when K = 3.
		var beta float32
		if sh.K == 3 {
			beta = 1
		}
		dx = s.dx[:n*inl]
		gemm.Sgemm(false, true, n, inl, kh, 1, du, kh, s.w[l], kh, beta, dx, inl)
		// Through the dropout of layer l−1 into its output's gradient.
		if s.drop != nil {
			m := s.drop.masks[l-1]
			for i := range dx {
				dx[i] *= m[i]
			}
		}
		s.dh, s.dx = dx, s.dh
	}
}

// Dropout holds the inverted-dropout masks between the layers of one
// training graph; Fill draws new ones before each run.
type Dropout struct {
	P     float64
	masks [][]float32 // fused stack: one N×H mask per layer but the last
	nodes [][]float64 // float64 graph: the inputs' backing arrays
	keep  float32     // 1/(1−P)
}

// Fill draws every mask: each entry is 1/(1−p) with probability 1−p, else 0
// (one rng.Float64 per entry, layer by layer). Nil-safe.
func (d *Dropout) Fill(rng *rand.Rand) {
	if d == nil {
		return
	}
	n := max(len(d.masks), len(d.nodes))
	for l := 0; l < n; l++ {
		var m32 []float32
		var m64 []float64
		if l < len(d.masks) {
			m32 = d.masks[l]
		}
		if l < len(d.nodes) {
			m64 = d.nodes[l]
		}
		size := max(len(m32), len(m64))
		for i := 0; i < size; i++ {
			v := d.keep
			if rng.Float64() < d.P {
				v = 0
			}
			if m32 != nil {
				m32[i] = v
			}
			if m64 != nil {
				m64[i] = float64(v)
			}
		}
	}
}
