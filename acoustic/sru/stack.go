package sru

import (
	"fmt"
	"github.com/strode-asr/strode/internal/f32"
	"math/rand"

	"github.com/strode-asr/strode/internal/gemm"
)

// stack is a whole SRU encoder as one autodiff.Kernel computing in float32:
// for every layer the product U = x·W through internal/gemm, the
// recurrence (forward32) and dropout, keeping what the reverse pass needs
// (each layer's input, U, c, f and r) in buffers reused from run to run.
// The reverse pass is the mirror image: backward32, then dW = xᵀ·dU and
// dx = dU·Wᵀ (+ the highway's part), then the dropout mask.
//
// A bidirectional layer does this once per direction; the reverse one
// works on a copy of the layer's input with every utterance's real frames
// reversed (bidir.go), its output and gradients are put back in time order
// with the same exchange of rows.
//
// Its inputs are x (N×In), the mask (N×1) and (W, weight_c, bias) per
// layer and direction; its output is the last layer's h (N×H·dirs). The
// graph around it stays float64: x and the parameters are rounded to
// float32 on the way in, the output and the parameter gradients widened on
// the way out (O(N·H + #W) conversions against O(N·H·In) products). The
// gradient for x is computed only with gradX (Encoder.InputGrad): x is
// usually the features.
type stack struct {
	layers []stackLayer
	drop   *Dropout
	h      []float32 // the last layer's output
	perm   []int     // reversal of the utterances' real frames (bidirectional)
	t, b   int
	gradX  bool      // compute d cost/d x (Encoder.InputGrad)
	dx0    []float32 // its float32 accumulator, N × the first layer's input

	dh, dx, du, dw []float32 // reverse-pass scratch
	hd, dxh, dxd   []float32 // bidirectional scratch: one direction's h, highway dx, dx
}

type stackLayer struct {
	in, out int       // input size; output size H·dirs
	param   int       // index in the inputs of the first direction's W
	x       []float32 // input (after the previous dropout)
	xr      []float32 // x with every utterance reversed (bidirectional)
	dirs    []stackDirection
}

type stackDirection struct {
	sh      Shape
	rev     bool
	u       []float32 // N × K·H
	c, f, r []float32 // N × H
	w       []float32 // W in float32
	wc, b   []float32 // weight_c, bias in float32
	xh      []float32 // highway input, this direction's half of x (bidirectional with K = 3; else nil: x)
}

func newStack(e *Encoder, t, b int, drop *Dropout) *stack {
	s := &stack{drop: drop, t: t, b: b, gradX: e.InputGrad}
	n := t * b
	param := 2
	for _, l := range e.Layers {
		sl := stackLayer{in: l.In, out: l.Hidden * l.Dirs(), param: param, x: make([]float32, n*l.In)}
		if l.Dirs() == 2 {
			sl.xr = make([]float32, n*l.In)
		}
		for d := 0; d < l.Dirs(); d++ {
			sh := Shape{T: t, B: b, H: l.Hidden, K: l.K(), Tanh: l.Tanh}
			sd := stackDirection{sh: sh, rev: d == 1,
				u: make([]float32, n*sh.K*sh.H),
				c: make([]float32, n*sh.H), f: make([]float32, n*sh.H), r: make([]float32, n*sh.H),
				w: make([]float32, l.In*sh.K*sh.H), wc: make([]float32, 2*sh.H), b: make([]float32, 2*sh.H)}
			if l.Dirs() == 2 && sh.K == 3 {
				sd.xh = make([]float32, n*sh.H)
			}
			sl.dirs = append(sl.dirs, sd)
			param += 3
		}
		s.layers = append(s.layers, sl)
	}
	s.h = make([]float32, n*e.Opts.OutDim())
	return s
}

func (s *stack) Shape(in [][2]int) (rows, cols int, err error) {
	last := s.layers[len(s.layers)-1]
	if len(in) != last.param+3*len(last.dirs) {
		return 0, 0, fmt.Errorf("sru: stack of %d layers has %d inputs", len(s.layers), len(in))
	}
	n := s.t * s.b
	if in[0] != [2]int{n, s.layers[0].in} || in[1] != [2]int{n, 1} {
		return 0, 0, fmt.Errorf("sru: stack inputs x %v and mask %v, want %d×%d and %d×1", in[0], in[1], n, s.layers[0].in, n)
	}
	for l, sl := range s.layers {
		for d, sd := range sl.dirs {
			p := in[sl.param+3*d:]
			if p[0] != [2]int{sl.in, sd.sh.K * sd.sh.H} || p[1] != [2]int{1, 2 * sd.sh.H} || p[2] != [2]int{1, 2 * sd.sh.H} {
				return 0, 0, fmt.Errorf("sru: layer %d direction %d parameters %v %v %v", l, d, p[0], p[1], p[2])
			}
		}
	}
	return n, last.out, nil
}

// columns copies columns [c0, c0+w) of the rows of m (cols wide) into dst
// (w wide), or with add adds dst into them.
func columns(m []float32, cols, c0, w int, dst []float32, add bool) {
	for r := 0; r < len(dst)/w; r++ {
		row := m[r*cols+c0 : r*cols+c0+w]
		d := dst[r*w : (r+1)*w]
		if add {
			for j, v := range d {
				row[j] += v
			}
		} else {
			copy(d, row)
		}
	}
}

func (s *stack) Forward(out []float64, in [][]float64) {
	f32.Narrow(s.layers[0].x, in[0])
	mask := in[1]
	n := s.t * s.b
	last := len(s.layers) - 1
	for l := range s.layers {
		sl := &s.layers[l]
		h := s.h
		if l < last {
			h = s.layers[l+1].x
		}
		if len(sl.dirs) == 2 {
			if s.perm == nil || l == 0 {
				s.perm = reversal(mask, s.t, s.b, s.perm)
			}
			permuteRows(sl.xr, sl.x, s.perm, sl.in)
		}
		for d := range sl.dirs {
			sd := &sl.dirs[d]
			p := in[sl.param+3*d:]
			f32.Narrow(sd.w, p[0])
			f32.Narrow(sd.wc, p[1])
			f32.Narrow(sd.b, p[2])
			x := sl.x
			if sd.rev {
				x = sl.xr
			}
			sh := sd.sh
			kh := sh.K * sh.H
			gemm.Sgemm(false, false, n, kh, sl.in, 1, x, sl.in, sd.w, kh, 0, sd.u, kh)
			if len(sl.dirs) == 1 {
				sh.forward32(sd.u, x, sd.wc, sd.b, mask, h, sd.c, sd.f, sd.r)
				continue
			}
			xh := x
			if sd.xh != nil {
				xh = sd.xh
				columns(x, sl.in, d*sh.H, sh.H, xh, false)
			}
			s.hd = f32.Grow(s.hd, n*sh.H)
			sh.forward32(sd.u, xh, sd.wc, sd.b, mask, s.hd, sd.c, sd.f, sd.r)
			// Into h's column block d, in time order.
			for r := 0; r < n; r++ {
				dst := r
				if sd.rev {
					dst = s.perm[r]
				}
				copy(h[dst*sl.out+d*sh.H:dst*sl.out+(d+1)*sh.H], s.hd[r*sh.H:(r+1)*sh.H])
			}
		}
		if l < last && s.drop != nil {
			m := s.drop.masks[l]
			for i := range h {
				h[i] *= m[i]
			}
		}
	}
	f32.Widen(out, s.h)
}

func (s *stack) Backward(din [][]float64, dout []float64, in [][]float64) {
	mask := in[1]
	n := s.t * s.b
	if s.dh == nil {
		maxOut, maxKH, maxW, maxIn := 0, 0, 0, 0
		for _, sl := range s.layers {
			maxOut = max(maxOut, sl.out)
			maxIn = max(maxIn, sl.in)
			for _, sd := range sl.dirs {
				maxKH = max(maxKH, sd.sh.K*sd.sh.H)
				maxW = max(maxW, sl.in*sd.sh.K*sd.sh.H)
			}
		}
		s.dh, s.dx = make([]float32, n*maxOut), make([]float32, n*maxOut)
		s.du, s.dw = make([]float32, n*maxKH), make([]float32, maxW)
		s.dxh, s.dxd = make([]float32, n*maxOut), make([]float32, n*maxIn)
		if s.gradX {
			s.dx0 = make([]float32, n*s.layers[0].in)
		}
	}
	f32.Narrow(s.dh, dout)
	for l := len(s.layers) - 1; l >= 0; l-- {
		sl := &s.layers[l]
		dhAll := s.dh[:n*sl.out]
		var dxAll []float32 // no gradient for the features (l = 0) unless gradX
		if l > 0 {
			dxAll = s.dx[:n*sl.in] // sl.in is the previous layer's out
		} else if s.gradX {
			dxAll = s.dx0
		}
		for d := range sl.dirs {
			sd := &sl.dirs[d]
			sh := sd.sh
			kh, hid := sh.K*sh.H, sh.H
			g := din[sl.param+3*d:]
			du := s.du[:n*kh]
			x := sl.x
			if sd.rev {
				x = sl.xr
			}
			if len(sl.dirs) == 1 {
				var dx []float32
				if sh.K == 3 {
					dx = s.dx[:n*hid]
					if dxAll != nil {
						dx = dxAll // the same rows, also at l = 0 with gradX
					}
				}
				sh.backward32(sd.u, x, sd.wc, mask, sd.c, sd.f, sd.r, dhAll, du, dx, g[1], g[2])
				dw := s.dw[:sl.in*kh]
				gemm.Sgemm(true, false, sl.in, kh, n, 1, x, sl.in, du, kh, 0, dw, kh)
				f32.Widen(g[0], dw)
				if dxAll == nil {
					break
				}
				// dx = dU·Wᵀ, added to the highway's part when K = 3.
				var beta float32
				if sh.K == 3 {
					beta = 1
				}
				gemm.Sgemm(false, true, n, sl.in, kh, 1, du, kh, sd.w, kh, beta, dxAll, sl.in)
				continue
			}
			// One direction of a bidirectional layer: its block of dh in
			// its own row order.
			dh := s.hd[:n*hid]
			for r := 0; r < n; r++ {
				src := r
				if sd.rev {
					src = s.perm[r]
				}
				copy(dh[r*hid:(r+1)*hid], dhAll[src*sl.out+d*hid:src*sl.out+(d+1)*hid])
			}
			xh := x
			var dxh []float32
			if sh.K == 3 {
				xh, dxh = sd.xh, s.dxh[:n*hid]
			}
			sh.backward32(sd.u, xh, sd.wc, mask, sd.c, sd.f, sd.r, dh, du, dxh, g[1], g[2])
			dw := s.dw[:sl.in*kh]
			gemm.Sgemm(true, false, sl.in, kh, n, 1, x, sl.in, du, kh, 0, dw, kh)
			f32.Widen(g[0], dw)
			if dxAll == nil {
				continue
			}
			dxd := s.dxd[:n*sl.in]
			gemm.Sgemm(false, true, n, sl.in, kh, 1, du, kh, sd.w, kh, 0, dxd, sl.in)
			if sh.K == 3 {
				columns(dxd, sl.in, d*hid, hid, dxh, true)
			}
			if !sd.rev {
				copy(dxAll, dxd)
				continue
			}
			for r := 0; r < n; r++ {
				dst := dxAll[s.perm[r]*sl.in : (s.perm[r]+1)*sl.in]
				for j, v := range dxd[r*sl.in : (r+1)*sl.in] {
					dst[j] += v
				}
			}
		}
		if l == 0 {
			if dxAll != nil {
				f32.Widen(din[0], dxAll)
			}
			break
		}
		// Through the dropout of layer l−1 into its output's gradient.
		if s.drop != nil {
			m := s.drop.masks[l-1]
			for i := range dxAll {
				dxAll[i] *= m[i]
			}
		}
		s.dh, s.dx = s.dx, s.dh
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
