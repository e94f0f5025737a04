package ode

import "github.com/strode-asr/strode/internal/f32"

// eulerMLP32 is eulerMLP computed in float32, as the paper's reference code
// trains: the inputs are rounded to float32 once per Forward, the K steps,
// their trajectory and the reverse pass run in float32 (products through
// sgemm, which reads the trajectory transposed in place, so nothing is
// transposed per step; activations through tanh32), and the results are
// widened back to float64 for the graph. The interval gradients are summed
// in float64; the bias gradients, column sums, are products with a row of
// ones (1ᵀ·dy) in float32 like the weights'.
type eulerMLP32 struct {
	steps   int
	block   int // rows per block (0: eulerRowBlock; a test sets small ones)
	r, d, h int
	// float32 copies of the latest Forward's weights
	w0, b0, w1, b1, w2, b2 []float32
	state                  []float32
	// trajectory of the latest Forward: per step the state and both hidden
	// activations (after tanh) and f.
	hs, u0, u1, fs [][]float32
	// scratch for the reverse pass: the weights transposed once per pass,
	// and dW2 transposed (D×H), which makes its product D×H×R (16-column
	// blocks) rather than H×D×R.
	w0t, w1t, w2t                    []float32
	dh, df, du1, du0, dw0, dw1, dw2t []float32
	db0, db1, db2                    []float32
	mm                               sgemm
}

func (e *eulerMLP32) Shape(in [][2]int) (int, int, error) {
	return (&eulerMLP{}).Shape(in)
}

func (e *eulerMLP32) alloc(r, d, h int) {
	if e.r == r && e.d == d && e.h == h && e.hs != nil {
		return
	}
	e.r, e.d, e.h = r, d, h
	mk := func(n int) [][]float32 {
		s := make([][]float32, e.steps)
		for i := range s {
			s[i] = make([]float32, n)
		}
		return s
	}
	e.hs, e.u0, e.u1, e.fs = mk(r*d), mk(r*h), mk(r*h), mk(r*d)
	e.w0, e.b0, e.w1, e.b1, e.w2, e.b2 = make([]float32, d*h), make([]float32, h), make([]float32, h*h), make([]float32, h), make([]float32, h*d), make([]float32, d)
	e.state, e.dh, e.df = make([]float32, r*d), make([]float32, r*d), make([]float32, r*d)
	e.du1, e.du0 = make([]float32, r*h), make([]float32, r*h)
	e.dw0, e.dw1, e.dw2t = make([]float32, d*h), make([]float32, h*h), make([]float32, d*h)
	e.w0t, e.w1t, e.w2t = make([]float32, h*d), make([]float32, h*h), make([]float32, d*h)
	e.db0, e.db1, e.db2 = make([]float32, h), make([]float32, h), make([]float32, d)
}

// dense is out = tanh?(x·w + b) for x r×k, w k×n, b 1×n.
func (e *eulerMLP32) dense(out, x, w, b []float32, r, k, n int, act bool) {
	f32.FillRows(out[:r*n], b)
	e.mm.mul(r, n, k, x, k, 1, w, n, out, n)
	if act {
		tanh32(out)
	}
}

// stepSize is span/K rounded to float32, the Euler step of row i.
func (e *eulerMLP32) stepSize(span []float64, i int) float32 {
	return float32(span[i] / float64(e.steps))
}

func (e *eulerMLP32) Forward(out []float64, in [][]float64) {
	h0, span := in[0], in[1]
	r, d := len(span), len(h0)/len(span)
	hid := len(in[3])
	e.alloc(r, d, hid)
	for i, w := range [][]float32{e.w0, e.b0, e.w1, e.b1, e.w2, e.b2} {
		f32.Narrow(w, in[i+2])
	}
	// The trajectory's states are the steps' own: step s reads hs[s] and
	// writes the next state straight into hs[s+1] (the last into state).
	// Rows go through all K steps a block at a time (rowBlock).
	f32.Narrow(e.hs[0], h0)
	for r0 := 0; r0 < r; r0 += e.rowBlock() {
		r1 := min(r0+e.rowBlock(), r)
		nr := r1 - r0
		for s := 0; s < e.steps; s++ {
			h := e.hs[s][r0*d : r1*d]
			u0, u1, f := e.u0[s][r0*hid:r1*hid], e.u1[s][r0*hid:r1*hid], e.fs[s][r0*d:r1*d]
			e.dense(u0, h, e.w0, e.b0, nr, d, hid, true)
			e.dense(u1, u0, e.w1, e.b1, nr, hid, hid, true)
			e.dense(f, u1, e.w2, e.b2, nr, hid, d, false)
			next := e.state
			if s+1 < e.steps {
				next = e.hs[s+1]
			}
			next = next[r0*d : r1*d]
			for i := 0; i < nr; i++ {
				eulerStep(next[i*d:(i+1)*d], h[i*d:(i+1)*d], f[i*d:(i+1)*d], e.stepSize(span, r0+i))
			}
		}
	}
	f32.Widen(out, e.state)
}

// Backward is eulerMLP.Backward in float32 (see there for the equations),
// block of rows by block of rows as Forward.
func (e *eulerMLP32) Backward(din [][]float64, dout []float64, in [][]float64) {
	span := in[1]
	r, d, hid := e.r, e.d, e.h
	dh0, dspan := din[0], din[1]
	k := float64(e.steps)
	dh, df, du1, du0 := e.dh, e.df, e.du1, e.du0
	f32.Narrow(dh, dout)
	clear(e.dw0)
	clear(e.dw1)
	clear(e.dw2t)
	clear(e.db0)
	clear(e.db1)
	clear(e.db2)
	transpose32(d, hid, e.w0, e.w0t)
	transpose32(hid, hid, e.w1, e.w1t)
	transpose32(hid, d, e.w2, e.w2t)
	for r0 := 0; r0 < r; r0 += e.rowBlock() {
		r1 := min(r0+e.rowBlock(), r)
		nr := r1 - r0
		dh := dh[r0*d : r1*d]
		df, du1, du0 := df[:nr*d], du1[:nr*hid], du0[:nr*hid]
		for s := e.steps - 1; s >= 0; s-- {
			f, hs := e.fs[s][r0*d:r1*d], e.hs[s][r0*d:r1*d]
			u0, u1 := e.u0[s][r0*hid:r1*hid], e.u1[s][r0*hid:r1*hid]
			for i := 0; i < nr; i++ {
				// df = st·dh; dspan += (dh·f)/K
				dspan[r0+i] += scaleDot(df[i*d:(i+1)*d], dh[i*d:(i+1)*d], f[i*d:(i+1)*d], e.stepSize(span, r0+i)) / k
			}
			// f = u1·W2 + b2: dW2ᵀ += dfᵀ·u1, db2 += 1ᵀ·df,
			// du1 = df·W2ᵀ ⊙ (1 − u1²)
			e.mm.mul(d, hid, nr, df, 1, d, u1, hid, e.dw2t, hid)
			e.mm.sumRows(d, nr, df, d, e.db2)
			clear(du1)
			e.mm.mul(nr, hid, d, df, d, 1, e.w2t, hid, du1, hid)
			tanhGrad32(du1, u1)
			// u1 = tanh(u0·W1 + b1)
			e.mm.mul(hid, hid, nr, u0, 1, hid, du1, hid, e.dw1, hid)
			e.mm.sumRows(hid, nr, du1, hid, e.db1)
			clear(du0)
			e.mm.mul(nr, hid, hid, du1, hid, 1, e.w1t, hid, du0, hid)
			tanhGrad32(du0, u0)
			// u0 = tanh(h·W0 + b0); h_{s+1} = h_s + …: dh += du0·W0ᵀ
			e.mm.mul(d, hid, nr, hs, 1, d, du0, hid, e.dw0, hid)
			e.mm.sumRows(hid, nr, du0, hid, e.db0)
			e.mm.mul(nr, d, hid, du0, hid, 1, e.w0t, d, dh, d)
		}
	}
	f32.Widen(dh0, dh)
	f32.Widen(din[2], e.dw0)
	f32.Widen(din[4], e.dw1)
	f32.Widen(din[3], e.db0)
	f32.Widen(din[5], e.db1)
	f32.Widen(din[7], e.db2)
	dw2 := din[6] // H×D
	for j := 0; j < d; j++ {
		for i, v := range e.dw2t[j*hid : (j+1)*hid] {
			dw2[i*d+j] = float64(v)
		}
	}
}

// eulerRowBlock is how many rows the float32 solve takes through all K
// steps before it starts on the next ones. Step by step over every row,
// each product read its operand back from memory (a minibatch's state is
// 1 MB at 4,000 frames × S = 64, its hidden layers half that) and the
// trajectory's 30 MB pushed everything else out; a block's intermediate
// values (≈ 150 KB at S = 64, H = 32) stay in the core's cache from one
// layer and step to the next, which is what counts when other work on the
// machine contends for memory. A multiple of the micro-kernel's 6 rows
// and of sgemm's 128-row panel of the weight products. The forward values
// do not depend on it (sgemm's and tanh32's results do not depend on the
// rows around them); the weight gradients sum the blocks in another order
// than one pass would, and the interval and state gradients do not change.
const eulerRowBlock = 384

func (e *eulerMLP32) rowBlock() int {
	if e.block > 0 {
		return e.block
	}
	return eulerRowBlock
}

// eulerStep is dst = x + a·y (an Euler step of one row: next state, state,
// f, step size), eight lanes at a time with AVX2 (eulerStep8, the same
// rounding: a product, then a sum).
func eulerStep(dst, x, y []float32, a float32) {
	x, y = x[:len(dst)], y[:len(dst)]
	j := 0
	if haveFMA && len(dst) >= 8 {
		j = len(dst) &^ 7
		eulerStep8(&dst[0], &x[0], &y[0], a, j)
	}
	for ; j < len(dst); j++ {
		dst[j] = x[j] + a*y[j]
	}
}

// scaleDot is dst = a·x and returns dot64(x, y): the reverse pass's two
// uses of a row of dh (df = st·dh and the interval's gradient dh·f) in one
// pass, four lanes at a time with AVX2 (scaleDot4, dot64's sums bit for
// bit) when the row is a multiple of four long.
func scaleDot(dst, x, y []float32, a float32) float64 {
	x, y = x[:len(dst)], y[:len(dst)]
	if haveFMA && len(dst) >= 4 && len(dst)%4 == 0 {
		return scaleDot4(&dst[0], &x[0], &y[0], a, len(dst))
	}
	for j, v := range x {
		dst[j] = a * v
	}
	return dot64(x, y)
}

// dot64 is Σ a_j·b_j in float64, with four partial sums so that the
// additions do not wait on each other (one running sum made the interval
// gradients a fifth of the reverse pass at the acoustic head's sizes).
func dot64(a, b []float32) float64 {
	b = b[:len(a)]
	var s0, s1, s2, s3 float64
	j := 0
	for ; j+4 <= len(a); j += 4 {
		s0 += float64(a[j]) * float64(b[j])
		s1 += float64(a[j+1]) * float64(b[j+1])
		s2 += float64(a[j+2]) * float64(b[j+2])
		s3 += float64(a[j+3]) * float64(b[j+3])
	}
	for ; j < len(a); j++ {
		s0 += float64(a[j]) * float64(b[j])
	}
	return (s0 + s1) + (s2 + s3)
}

// transpose32 writes the n×m transpose of the row-major m×n matrix a into t.
func transpose32(m, n int, a, t []float32) {
	for i := 0; i < m; i++ {
		for j, v := range a[i*n : (i+1)*n] {
			t[j*m+i] = v
		}
	}
}
