package odernn

import (
	"math"

	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/internal/gemm"
)

// Stream is the ODE-RNN cell for one utterance whose frames come one at a
// time (online decoding): the fused cell's Forward in float32 with B = 1,
// the state z of the previous frame carried, so its states are the cell's
// bit for bit.
type Stream struct {
	s, h, k                int
	v                      []float32
	w0, b0, w1, b1, w2, b2 []float32
	p, z, u0, u1, f        []float32
	started                bool
}

// NewStream returns the cell of k Euler steps with the forget gate's weight
// v (1×S) and f_o's three layers, whose values it copies now.
func NewStream(v *optim.Param, fo [3]*nn.Linear, k int) *Stream {
	c := &Stream{s: len(v.Data), h: fo[0].W.Cols, k: k}
	f32 := func(v []float64) []float32 {
		out := make([]float32, len(v))
		for i, x := range v {
			out[i] = float32(x)
		}
		return out
	}
	c.v = f32(v.Data)
	c.w0, c.b0 = f32(fo[0].W.Data), f32(fo[0].B.Data)
	c.w1, c.b1 = f32(fo[1].W.Data), f32(fo[1].B.Data)
	c.w2, c.b2 = f32(fo[2].W.Data), f32(fo[2].B.Data)
	c.p, c.z, c.f = make([]float32, c.s), make([]float32, c.s), make([]float32, c.s)
	c.u0, c.u1 = make([]float32, c.h), make([]float32, c.h)
	return c
}

// Reset starts the next utterance.
func (c *Stream) Reset() {
	clear(c.z)
	c.started = false
}

// dense is odeRNNCell.dense for one row: out = x·w + b, tanh'd with act.
func (c *Stream) dense(out, x, w, b []float32, k, n int, act bool) {
	copy(out, b)
	gemm.Sgemm(false, false, 1, n, k, 1, x, k, w, n, 1, out, n)
	if act {
		for i, v := range out {
			out[i] = float32(math.Tanh(float64(v)))
		}
	}
}

// Step takes one frame's [C | F] (2S) and returns z (S, valid until the
// next step): p = the previous z evolved by K Euler steps of f_o (0 at the
// first frame), g = σ(F + v⊙p), z = g⊙p + (1−g)⊙C.
func (c *Stream) Step(u []float32) []float32 {
	S, H := c.s, c.h
	p := c.p
	if !c.started {
		clear(p)
		c.started = true
	} else {
		copy(p, c.z)
		step := 1 / float32(c.k)
		for range c.k {
			c.dense(c.u0, p, c.w0, c.b0, S, H, true)
			c.dense(c.u1, c.u0, c.w1, c.b1, H, H, true)
			c.dense(c.f, c.u1, c.w2, c.b2, H, S, false)
			for i, v := range c.f {
				p[i] += step * v
			}
		}
	}
	cand, fin := u[:S], u[S:2*S]
	for j := range c.z {
		gj := float32(1 / (1 + math.Exp(-float64(fin[j]+c.v[j]*p[j]))))
		c.z[j] = gj*p[j] + (1-gj)*cand[j]
	}
	return c.z
}
