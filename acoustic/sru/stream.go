package sru

import (
	"errors"
	"fmt"
	"github.com/strode-asr/strode/internal/f32"
	"math"

	"github.com/strode-asr/strode/internal/gemm"
)

// ErrBidirectional is returned by NewStream for a bidirectional encoder: its
// reverse direction starts at the utterance's last frame, so no output is
// final before the utterance has ended.
var ErrBidirectional = errors.New("sru: a bidirectional encoder cannot run on frames as they arrive")

// Stream runs a unidirectional Encoder over one utterance whose frames
// arrive in pieces (online decoding): each call to Forward takes the next
// frames and returns their outputs, carrying every layer's cell state c
// from call to call, so any split of the utterance gives the outputs of the
// whole-utterance forward pass — bit for bit those of the fused float32
// stack (stack.go) in inference, since every product and every gate goes
// through the same float32 operations: U = x·W per layer through
// internal/gemm (whose results do not depend on how many rows a product
// has), then forward32's recurrence for one utterance. Dropout is off, as
// in any forward pass.
//
// The parameters are rounded to float32 once, when the stream is made;
// later changes to the encoder are not seen. A Stream is not safe for
// concurrent use; Reset starts the next utterance.
type Stream struct {
	e      *Encoder
	layers []streamLayer
	bufs   [2][]float32 // layer outputs, alternating
	u      []float32    // U of the current layer
}

type streamLayer struct {
	in   int
	sh   Shape     // T and B unused
	w    []float32 // W, In × K·H
	wc   []float32 // [v_f | v_r]
	bias []float32 // [b_f | b_r]
	c    []float32 // the cell state after the last frame
}

// NewStream returns a stream for e, which must be unidirectional.
func (e *Encoder) NewStream() (*Stream, error) {
	if e.Opts.Bidirectional {
		return nil, ErrBidirectional
	}
	s := &Stream{e: e}
	for _, l := range e.Layers {
		if l.Dirs() != 1 {
			return nil, ErrBidirectional
		}
		sl := streamLayer{in: l.In, sh: Shape{B: 1, H: l.Hidden, K: l.K(), Tanh: l.Tanh},
			w: make([]float32, len(l.W.Data)), wc: make([]float32, len(l.WeightC.Data)), bias: make([]float32, len(l.Bias.Data)),
			c: make([]float32, l.Hidden)}
		f32.Narrow(sl.w, l.W.Data)
		f32.Narrow(sl.wc, l.WeightC.Data)
		f32.Narrow(sl.bias, l.Bias.Data)
		s.layers = append(s.layers, sl)
	}
	return s, nil
}

// InDim and OutDim are the sizes of a frame in and out.
func (s *Stream) InDim() int  { return s.layers[0].in }
func (s *Stream) OutDim() int { return s.e.Opts.OutDim() }

// Reset forgets the utterance: the cell states go back to zero.
func (s *Stream) Reset() {
	for i := range s.layers {
		clear(s.layers[i].c)
	}
}

// Forward takes the next rows frames x (rows × InDim, row-major) and
// returns their outputs (rows × OutDim), valid until the next call.
func (s *Stream) Forward(x []float32, rows int) ([]float32, error) {
	if len(x) != rows*s.InDim() {
		return nil, fmt.Errorf("sru: stream: %d values for %d frames of dimension %d", len(x), rows, s.InDim())
	}
	if rows == 0 {
		return nil, nil
	}
	in := x
	for l := range s.layers {
		sl := &s.layers[l]
		h, k := sl.sh.H, sl.sh.K
		s.u = f32.Grow(s.u, rows*k*h)
		gemm.Sgemm(false, false, rows, k*h, sl.in, 1, in, sl.in, sl.w, k*h, 0, s.u, k*h)
		out := f32.Grow(s.bufs[l%2], rows*h)
		s.bufs[l%2] = out
		sl.sh.step32(s.u, in, sl.wc, sl.bias, sl.c, out, rows)
		in = out
	}
	return in, nil
}

// step32 is forward32 for one utterance of rows frames (every frame real)
// starting from the cell state c, which it leaves at the last frame's:
// the same float32 operations in the same order, so the outputs are
// forward32's bit for bit. u is rows × K·H, x rows × H (the highway input,
// unused when K = 4), h rows × H.
func (s Shape) step32(u, x, wc, bias, c, h []float32, rows int) {
	H, K := s.H, s.K
	vf, vr := wc[:H], wc[H:2*H]
	bf, br := bias[:H], bias[H:2*H]
	f, r := make([]float32, H), make([]float32, H)
	for t := 0; t < rows; t++ {
		ur := u[t*K*H:]
		u0, u1, u2 := ur[:H], ur[H:2*H], ur[2*H:3*H]
		var xr []float32
		if K == 4 {
			xr = ur[3*H : 4*H]
		} else {
			xr = x[t*H : (t+1)*H]
		}
		hr := h[t*H : (t+1)*H]
		if s.Tanh {
			for j := range hr {
				fj := sigmoid32(u1[j] + vf[j]*c[j] + bf[j])
				rj := sigmoid32(u2[j] + vr[j]*c[j] + br[j])
				cj := fj*c[j] + (1-fj)*u0[j]
				hr[j] = rj*float32(math.Tanh(float64(cj))) + (1-rj)*xr[j]
				c[j] = cj
			}
			continue
		}
		for j := range f {
			f[j] = u1[j] + vf[j]*c[j] + bf[j]
			r[j] = u2[j] + vr[j]*c[j] + br[j]
		}
		sigmoidInPlace(f)
		sigmoidInPlace(r)
		for j := range hr {
			fj, rj := f[j], r[j]
			cj := fj*c[j] + (1-fj)*u0[j]
			hr[j] = rj*cj + (1-rj)*xr[j]
			c[j] = cj
		}
	}
}
