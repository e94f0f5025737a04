package odernn

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/internal/gemm"
)

// odeRNNCell is the ODE-RNN layer as one fused operation over a
// T×B time-major block, with its reverse pass by hand. Inputs:
//
//	0 U    N×2S  [C | F]: candidate and forget-gate input per frame
//	1 v    1×S   the forget gate's weight on the evolved state
//	2 mask N×1   1 for real frames
//	3-8    W0 S×H, b0 1×H, W1 H×H, b1 1×H, W2 H×S, b2 1×S: f_o
//
// and the output Z (N×S): z_i on real frames, 0 on padded ones (where the
// state is carried unchanged, as the SRU does). Per utterance p_0 = 0 and,
// for i ≥ 1, p_i = z_{i−1} after K Euler steps h ← h + f_o(h)/K, f_o(h) =
// tanh(tanh(h·W0 + b0)·W1 + b1)·W2 + b2; then g = σ(F + v⊙p),
// z = g⊙p + (1−g)⊙C.
//
// Only the frames are sequential: each Euler step is three products over
// the B utterances at once. It computes in T (float32 with internal/gemm for
// training, float64 for the gradient checks), keeps the trajectory (every
// step's state and both tanh layers) for the reverse pass, which walks
// frames and steps backwards: through the gate, then through the K steps
// into z_{i−1}, accumulating the weight gradients of f_o frame by frame.
// NewCell is the ODE-RNN layer over a T×B time-major block of utterances
// (t frames, b utterances) with a state of s values, f_o's hidden layers
// of h and k Euler steps between frames, as one fused graph operation
// (odeRNNCell): in float32 through internal/gemm for training, or float64
// for the gradient checks.
func NewCell(t, b, s, h, k int, float32Products bool) autodiff.Kernel {
	if float32Products {
		return newODERNNCell[float32](t, b, s, h, k, mm32)
	}
	return newODERNNCell[float64](t, b, s, h, k, mm64)
}

type odeRNNCell[T float32 | float64] struct {
	t, b, s, h, k int
	mm            func(transA, transB bool, m, n, k int, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)

	u, v, mask             []T   // inputs in T
	w0, b0, w1, b1, w2, b2 []T   // f_o in T
	p, g, z                []T   // N×S: evolved state, gate, new state
	hs, u0, u1             [][]T // per frame (1 … T−1) and step: state B×S, tanh layers B×H

	// reverse-pass scratch
	dz, dh, df, du0, du1, dp []T
	dw0, dw1, dw2            []T
	db0, db1, db2, dv        []float64
}

func newODERNNCell[T float32 | float64](t, b, s, h, k int, mm func(transA, transB bool, m, n, k int, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int)) *odeRNNCell[T] {
	c := &odeRNNCell[T]{t: t, b: b, s: s, h: h, k: k, mm: mm}
	n := t * b
	c.u, c.v, c.mask = make([]T, n*2*s), make([]T, s), make([]T, n)
	c.w0, c.b0, c.w1, c.b1, c.w2, c.b2 = make([]T, s*h), make([]T, h), make([]T, h*h), make([]T, h), make([]T, h*s), make([]T, s)
	c.p, c.g, c.z = make([]T, n*s), make([]T, n*s), make([]T, n*s)
	c.df = make([]T, b*s)
	steps := max(0, t-1) * k
	c.hs, c.u0, c.u1 = make([][]T, steps), make([][]T, steps), make([][]T, steps)
	for i := range c.hs {
		c.hs[i], c.u0[i], c.u1[i] = make([]T, b*s), make([]T, b*h), make([]T, b*h)
	}
	return c
}

func (c *odeRNNCell[T]) Shape(in [][2]int) (int, int, error) {
	n, s, h := c.t*c.b, c.s, c.h
	want := [][2]int{{n, 2 * s}, {1, s}, {n, 1}, {s, h}, {1, h}, {h, h}, {1, h}, {h, s}, {1, s}}
	if len(in) != len(want) {
		return 0, 0, fmt.Errorf("odernn: cell: %d inputs, want %d", len(in), len(want))
	}
	for i, w := range want {
		if in[i] != w {
			return 0, 0, fmt.Errorf("odernn: cell: input %d is %v, want %v", i, in[i], w)
		}
	}
	return n, s, nil
}

func narrowTo[T float32 | float64](dst []T, src []float64) {
	for i, v := range src {
		dst[i] = T(v)
	}
}

// dense is out = tanh(x·w + b) for x r×k (row-major), w k×n, b 1×n.
func (c *odeRNNCell[T]) dense(out, x, w, b []T, r, k, n int, act bool) {
	for i := 0; i < r; i++ {
		copy(out[i*n:(i+1)*n], b)
	}
	c.mm(false, false, r, n, k, x, k, w, n, 1, out, n)
	if act {
		for i, v := range out {
			out[i] = T(math.Tanh(float64(v)))
		}
	}
}

func (c *odeRNNCell[T]) Forward(out []float64, in [][]float64) {
	narrowTo(c.u, in[0])
	narrowTo(c.v, in[1])
	narrowTo(c.mask, in[2])
	for i, p := range [][]T{c.w0, c.b0, c.w1, c.b1, c.w2, c.b2} {
		narrowTo(p, in[3+i])
	}
	B, S, H := c.b, c.s, c.h
	f := c.df // free until Backward
	step := 1 / T(c.k)
	for t := 0; t < c.t; t++ {
		rows := t * B * S
		p := c.p[rows : rows+B*S]
		if t == 0 {
			clear(p)
		} else {
			copy(p, c.z[rows-B*S:rows])
			for s := 0; s < c.k; s++ {
				j := (t-1)*c.k + s
				copy(c.hs[j], p)
				c.dense(c.u0[j], p, c.w0, c.b0, B, S, H, true)
				c.dense(c.u1[j], c.u0[j], c.w1, c.b1, B, H, H, true)
				c.dense(f, c.u1[j], c.w2, c.b2, B, H, S, false)
				for i, v := range f {
					p[i] += step * v
				}
			}
		}
		for b := 0; b < B; b++ {
			r := t*B + b
			z, g, pr := c.z[r*S:(r+1)*S], c.g[r*S:(r+1)*S], p[b*S:(b+1)*S]
			o := out[r*S : (r+1)*S]
			if c.mask[r] == 0 {
				if t == 0 {
					clear(z)
				} else {
					copy(z, c.z[(r-B)*S:(r-B+1)*S])
				}
				clear(g)
				clear(o)
				continue
			}
			cand, fin := c.u[r*2*S:r*2*S+S], c.u[r*2*S+S:(r+1)*2*S]
			for j := range z {
				gj := T(1 / (1 + math.Exp(-float64(fin[j]+c.v[j]*pr[j]))))
				g[j] = gj
				z[j] = gj*pr[j] + (1-gj)*cand[j]
				o[j] = float64(z[j])
			}
		}
	}
}

func (c *odeRNNCell[T]) Backward(din [][]float64, dout []float64, _ [][]float64) {
	B, S, H := c.b, c.s, c.h
	if c.dz == nil {
		c.dz, c.dh, c.dp = make([]T, B*S), make([]T, B*S), make([]T, B*S)
		c.du0, c.du1 = make([]T, B*H), make([]T, B*H)
		c.dw0, c.dw1, c.dw2 = make([]T, S*H), make([]T, H*H), make([]T, H*S)
		c.db0, c.db1, c.db2, c.dv = make([]float64, H), make([]float64, H), make([]float64, S), make([]float64, S)
	}
	for _, d := range [][]T{c.dz, c.dw0, c.dw1, c.dw2} {
		clear(d)
	}
	for _, d := range [][]float64{c.db0, c.db1, c.db2, c.dv} {
		clear(d)
	}
	du := din[0]
	step := 1 / T(c.k)
	for t := c.t - 1; t >= 0; t-- {
		// c.dz holds d cost/d z_t from frame t+1; add the output's.
		for b := 0; b < B; b++ {
			r := t*B + b
			gz, dp := c.dz[b*S:(b+1)*S], c.dp[b*S:(b+1)*S]
			if c.mask[r] == 0 {
				clear(dp) // z_t = z_{t−1}: gz passes to frame t−1 below
				continue
			}
			do := dout[r*S : (r+1)*S]
			g, pr := c.g[r*S:(r+1)*S], c.p[r*S:(r+1)*S]
			cand := c.u[r*2*S : r*2*S+S]
			dcand, dfin := du[r*2*S:r*2*S+S], du[r*2*S+S:(r+1)*2*S]
			for j := range gz {
				gj := gz[j] + T(do[j])
				da := gj * (pr[j] - cand[j]) * g[j] * (1 - g[j])
				dcand[j] = float64(gj * (1 - g[j]))
				dfin[j] = float64(da)
				c.dv[j] += float64(da * pr[j])
				dp[j] = gj*g[j] + da*c.v[j]
			}
		}
		if t == 0 {
			break
		}
		// Through the K Euler steps from z_{t−1} to p_t: dh = d/d h_{s+1}.
		copy(c.dh, c.dp)
		for s := c.k - 1; s >= 0; s-- {
			j := (t-1)*c.k + s
			u0, u1, hs := c.u0[j], c.u1[j], c.hs[j]
			for i, v := range c.dh {
				c.df[i] = step * v
			}
			c.accum(c.dw2, c.db2, u1, c.df, B, H, S)
			c.mm(false, true, B, H, S, c.df, S, c.w2, S, 0, c.du1, H)
			for i, u := range u1 {
				c.du1[i] *= 1 - u*u
			}
			c.accum(c.dw1, c.db1, u0, c.du1, B, H, H)
			c.mm(false, true, B, H, H, c.du1, H, c.w1, H, 0, c.du0, H)
			for i, u := range u0 {
				c.du0[i] *= 1 - u*u
			}
			c.accum(c.dw0, c.db0, hs, c.du0, B, S, H)
			c.mm(false, true, B, S, H, c.du0, H, c.w0, H, 1, c.dh, S)
		}
		// d cost/d z_{t−1}: through the ODE on real frames, carried on padded ones.
		for b := 0; b < B; b++ {
			if c.mask[t*B+b] != 0 {
				copy(c.dz[b*S:(b+1)*S], c.dh[b*S:(b+1)*S])
			}
		}
	}
	copy(din[1], c.dv)
	for i, d := range [][]T{c.dw0, c.dw1, c.dw2} {
		for j, v := range d {
			din[3+2*i][j] = float64(v)
		}
	}
	for i, d := range [][]float64{c.db0, c.db1, c.db2} {
		copy(din[4+2*i], d)
	}
}

// accum adds xᵀ·dy to dw (k×n) and the column sums of dy to db, for x r×k
// and dy r×n.
func (c *odeRNNCell[T]) accum(dw []T, db []float64, x, dy []T, r, k, n int) {
	c.mm(true, false, k, n, r, x, k, dy, n, 1, dw, n)
	for i := 0; i < r; i++ {
		for j, v := range dy[i*n : (i+1)*n] {
			db[j] += float64(v)
		}
	}
}

// mm32 is C = op(A)·op(B) + beta·C through internal/gemm.
func mm32(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	gemm.Sgemm(transA, transB, m, n, k, 1, a, lda, b, ldb, beta, c, ldc)
}

// mm64 is mm32 in plain float64 loops (the gradient checks' sizes).
func mm64(transA, transB bool, m, n, k int, a []float64, lda int, b []float64, ldb int, beta float64, c []float64, ldc int) {
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			sum := 0.0
			for p := 0; p < k; p++ {
				ia, ib := i*lda+p, p*ldb+j
				if transA {
					ia = p*lda + i
				}
				if transB {
					ib = j*ldb + p
				}
				sum += a[ia] * b[ib]
			}
			if beta != 0 {
				sum += beta * c[i*ldc+j]
			}
			c[i*ldc+j] = sum
		}
	}
}
