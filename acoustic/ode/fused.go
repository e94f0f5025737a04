package ode

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

// MLP is the ODE function f(h) = tanh(tanh(h·W0 + b0)·W1 + b1)·W2 + b2
// (Linear→tanh→Linear→tanh→Linear, DESIGN.md §3) as graph nodes: W0 D×H,
// b0 1×H, W1 H×H, b1 1×H, W2 H×D, b2 1×D.
type MLP struct{ W0, B0, W1, B1, W2, B2 *autodiff.Node }

// Func is f as graph operations (for the RK4 and the unfused solvers).
func (m MLP) Func(g *autodiff.Graph) Func {
	return func(h *autodiff.Node) *autodiff.Node {
		h = g.Tanh(g.AddRow(g.MatMul(h, m.W0), m.B0))
		h = g.Tanh(g.AddRow(g.MatMul(h, m.W1), m.B1))
		return g.AddRow(g.MatMul(h, m.W2), m.B2)
	}
}

// SolveMLP integrates dh/dτ = f(h) for the MLP f from h0 (R×D) over
// intervals span (R×1). Euler runs as one fused graph node unless
// Opts.Unfused — eulerMLP in float64, eulerMLP32 when Opts.DType is Float32;
// RK4 is built from graph operations.
func (s Solver) SolveMLP(g *autodiff.Graph, f MLP, h0, span *autodiff.Node) *autodiff.Node {
	if s.Opts.Method == Euler && !s.Opts.Unfused {
		var k autodiff.Kernel = &eulerMLP{steps: s.Opts.Steps}
		if s.Opts.DType == Float32 {
			k = &eulerMLP32{steps: s.Opts.Steps}
		}
		return g.Fused("euler-mlp", k, h0, span, f.W0, f.B0, f.W1, f.B1, f.W2, f.B2)
	}
	return s.Solve(g, f.Func(g), h0, span)
}

// eulerMLP is K Euler steps h ← h + (span/K)⊙f(h) with its reverse pass by
// hand (backpropagation through the stored trajectory). Products go through
// dgemm (AVX2/FMA where available).
type eulerMLP struct {
	steps   int
	r, d, h int
	// trajectory of the latest Forward: per step the state and both hidden
	// activations (after tanh) and f.
	hs, u0, u1, fs [][]float64
	// scratch for the reverse pass
	tmpT, dh, df, du1, du0, dnext []float64
}

func (e *eulerMLP) Shape(in [][2]int) (int, int, error) {
	if len(in) != 8 {
		return 0, 0, fmt.Errorf("euler-mlp: %d inputs, want 8", len(in))
	}
	r, d, h := in[0][0], in[0][1], in[2][1]
	want := [][2]int{{r, d}, {r, 1}, {d, h}, {1, h}, {h, h}, {1, h}, {h, d}, {1, d}}
	for i, w := range want {
		if in[i] != w {
			return 0, 0, fmt.Errorf("euler-mlp: input %d is %v, want %v", i, in[i], w)
		}
	}
	return r, d, nil
}

func (e *eulerMLP) alloc(r, d, h int) {
	if e.r == r && e.d == d && e.h == h && e.hs != nil {
		return
	}
	e.r, e.d, e.h = r, d, h
	mk := func(n int) [][]float64 {
		s := make([][]float64, e.steps)
		for i := range s {
			s[i] = make([]float64, n)
		}
		return s
	}
	e.hs, e.u0, e.u1, e.fs = mk(r*d), mk(r*h), mk(r*h), mk(r*d)
	e.tmpT = make([]float64, r*max(h, d))
	e.dh, e.df, e.dnext = make([]float64, r*d), make([]float64, r*d), make([]float64, r*d)
	e.du1, e.du0 = make([]float64, r*h), make([]float64, r*h)
}

// dense is out = tanh?(x·w + b) for x r×k, w k×n, b 1×n.
func dense(out, x, w, b []float64, r, k, n int, act bool) {
	for i := 0; i < r; i++ {
		copy(out[i*n:(i+1)*n], b)
	}
	dgemm(r, n, k, x, k, w, n, out, n)
	if act {
		tanh64(out)
	}
}

func (e *eulerMLP) Forward(out []float64, in [][]float64) {
	h0, span, w0, b0, w1, b1, w2, b2 := in[0], in[1], in[2], in[3], in[4], in[5], in[6], in[7]
	r, d := len(span), len(h0)/len(span)
	hid := len(b0)
	e.alloc(r, d, hid)
	k := float64(e.steps)
	copy(out, h0)
	for s := 0; s < e.steps; s++ {
		copy(e.hs[s], out)
		dense(e.u0[s], out, w0, b0, r, d, hid, true)
		dense(e.u1[s], e.u0[s], w1, b1, r, hid, hid, true)
		dense(e.fs[s], e.u1[s], w2, b2, r, hid, d, false)
		for i := 0; i < r; i++ {
			st := span[i] / k
			for j := 0; j < d; j++ {
				out[i*d+j] += st * e.fs[s][i*d+j]
			}
		}
	}
}

// Backward walks the steps in reverse. With dh = d cost/d h_{s+1}:
// df = (span/K)⊙dh, d span += Σ_j dh·f / K; then through the layers
// (tanh' = 1 − u²), accumulating weight gradients, and dh_s = dh + da0·W0ᵀ.
func (e *eulerMLP) Backward(din [][]float64, dout []float64, in [][]float64) {
	span, w0, w1, w2 := in[1], in[2], in[4], in[6]
	r, d, hid := e.r, e.d, e.h
	dh0, dspan, dw0, db0, dw1, db1, dw2, db2 := din[0], din[1], din[2], din[3], din[4], din[5], din[6], din[7]
	k := float64(e.steps)
	dh := e.dh
	copy(dh, dout)
	w0t := make([]float64, hid*d)
	w1t := make([]float64, hid*hid)
	w2t := make([]float64, d*hid)
	transpose(d, hid, w0, w0t)
	transpose(hid, hid, w1, w1t)
	transpose(hid, d, w2, w2t)
	for s := e.steps - 1; s >= 0; s-- {
		f, u0, u1, hs := e.fs[s], e.u0[s], e.u1[s], e.hs[s]
		df := e.df
		for i := 0; i < r; i++ {
			st := span[i] / k
			acc := 0.0
			for j := 0; j < d; j++ {
				g := dh[i*d+j]
				acc += g * f[i*d+j]
				df[i*d+j] = st * g
			}
			dspan[i] += acc / k
		}
		// f = u1·W2 + b2
		e.accumWeights(dw2, db2, u1, df, r, hid, d)
		du1 := e.du1
		clear(du1)
		dgemm(r, hid, d, df, d, w2t, hid, du1, hid)
		for i, u := range u1 {
			du1[i] *= 1 - u*u
		}
		// u1 = tanh(u0·W1 + b1)
		e.accumWeights(dw1, db1, u0, du1, r, hid, hid)
		du0 := e.du0
		clear(du0)
		dgemm(r, hid, hid, du1, hid, w1t, hid, du0, hid)
		for i, u := range u0 {
			du0[i] *= 1 - u*u
		}
		// u0 = tanh(h·W0 + b0); h_{s+1} = h_s + …
		e.accumWeights(dw0, db0, hs, du0, r, d, hid)
		dgemm(r, d, hid, du0, hid, w0t, d, dh, d)
	}
	copy(dh0, dh)
}

// accumWeights adds xᵀ·dy to dw (k×n) and the column sums of dy to db, for
// x r×k and dy r×n.
func (e *eulerMLP) accumWeights(dw, db, x, dy []float64, r, k, n int) {
	xt := e.tmpT[:k*r]
	transpose(r, k, x, xt)
	dgemm(k, n, r, xt, r, dy, n, dw, n)
	for i := 0; i < r; i++ {
		for j := 0; j < n; j++ {
			db[j] += dy[i*n+j]
		}
	}
}
