package sru

import (
	"math"
	"math/rand"
	"runtime"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// TestStackMatchesGraph: the fused float32 stack gives the float64 graph's
// outputs and parameter gradients (the graph being the one the finite
// differences check) to float32 precision, with padding, dropout, the
// highway projection (K = 4) and x′ = x (K = 3), identity and tanh. The
// tolerance is relative to the largest entry of each array: 2e-4 for
// values, 1e-3 for gradients (sums over all frames, rounded per term).
func TestStackMatchesGraph(t *testing.T) {
	defer func(v bool) { Float32Products = v }(Float32Products)
	for _, tc := range []struct {
		name  string
		in    int
		act   string
		bidir bool
	}{
		{"k4-identity", 5, Identity, false},
		{"k4-wide-input", 21, Identity, false}, // input wider than the layers, as spliced features
		{"bidir-k4-wide-input", 21, Identity, true},
		{"k3-identity", 8, Identity, false},
		{"k4-tanh", 5, Tanh, false},
		{"bidir-k4-identity", 5, Identity, true},
		{"bidir-k3-tanh", 16, Tanh, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const T, B, H = 7, 4, 8
			rng := rand.New(rand.NewSource(11))
			var ps nn.Params
			o := Options{Hidden: H, Layers: 3, Activation: tc.act, HighwayBias: -0.5, Dropout: 0.25, Bidirectional: tc.bidir}
			out := o.OutDim()
			enc, err := NewEncoder(&ps, "sru", tc.in, o, rng)
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range enc.Layers {
				for d := 0; d < l.Dirs(); d++ {
					_, _, bias := l.direction(d)
					for j := range bias.Data {
						bias.Data[j] += 0.3 * rng.NormFloat64()
					}
				}
			}
			x := make([]float64, T*B*tc.in)
			for j := range x {
				x[j] = rng.NormFloat64()
			}
			mask := make([]float64, T*B)
			for b, l := range []int{T, T - 3, 1, T - 1} {
				for i := 0; i < l; i++ {
					mask[i*B+b] = 1
				}
			}
			w := make([]float64, T*B*out)
			for j := range w {
				w[j] = rng.NormFloat64()
			}
			var outs, grads [2][][]float64
			for i, f32 := range []bool{false, true} {
				Float32Products = f32
				n := nn.NewNet()
				xn := n.Const("x", x, T*B, tc.in)
				mn := n.Const("mask", mask, T*B, 1)
				h, drop, err := enc.Apply(n, xn, mn, T, B, true)
				if err != nil {
					t.Fatal(err)
				}
				drop.Fill(rand.New(rand.NewSource(3)))
				loss := n.Add(n.Sum(n.Mul(h, n.Const("w", w, T*B, out))), n.Sum(n.Square(h)))
				params, nodes := n.Bound()
				m, err := n.Compile(loss, nodes)
				if err != nil {
					t.Fatal(err)
				}
				if err := m.Run(); err != nil {
					t.Fatal(err)
				}
				outs[i] = [][]float64{append([]float64(nil), autodiff.Value(h)...), {autodiff.Value(loss)[0]}}
				for j, p := range params {
					if j >= len(enc.Layers)*3*o.Dirs() {
						t.Fatalf("unexpected parameter %s", p.Name)
					}
					grads[i] = append(grads[i], append([]float64(nil), m.Grad(j)...))
				}
				m.Close()
			}
			compare := func(what string, a, b []float64, tol float64) {
				scale := 0.0
				for _, v := range a {
					scale = math.Max(scale, math.Abs(v))
				}
				for j := range a {
					if d := math.Abs(a[j] - b[j]); d > tol*math.Max(scale, 1e-6) {
						t.Errorf("%s[%d]: float64 %g, float32 stack %g", what, j, a[j], b[j])
						return
					}
				}
			}
			compare("h", outs[0][0], outs[1][0], 2e-4)
			compare("loss", outs[0][1], outs[1][1], 2e-4)
			for j := range grads[0] {
				compare(ps.List[j].Name, grads[0][j], grads[1][j], 1e-3)
			}
		})
	}
}

// TestExp32 bounds exp32's error against math.Exp over σ's useful range.
func TestExp32(t *testing.T) {
	worst := 0.0
	for x := -87.0; x <= 88; x += 0.0137 {
		got := float64(exp32(float32(x)))
		want := math.Exp(float64(float32(x)))
		if rel := math.Abs(got-want) / want; rel > worst {
			worst = rel
		}
	}
	if worst > 3e-7 {
		t.Errorf("exp32 worst relative error %.3g, want ≤ 3e-7", worst)
	}
	// The vector σ against the scalar one, including the tail.
	xs := make([]float32, 1003)
	for i := range xs {
		xs[i] = float32(i-501) * 0.173
	}
	xs[0], xs[1], xs[2] = -1e30, 1e30, 0
	ys := append([]float32(nil), xs...)
	sigmoidInPlace(ys)
	for i, x := range xs {
		want := 1 / (1 + math.Exp(-float64(x)))
		if d := math.Abs(float64(ys[i]) - want); d > 2e-7*math.Max(want, 1e-30) && d > 1e-37 {
			t.Errorf("σ(%g): vector %g, want %g", x, ys[i], want)
		}
		if math.Abs(float64(ys[i]-sigmoid32(x))) > 2e-7 {
			t.Errorf("σ(%g): vector %g, scalar %g", x, ys[i], sigmoid32(x))
		}
	}
	for _, x := range []float32{-1e30, -100, 100, 1e30} {
		if s := sigmoid32(x); math.IsNaN(float64(s)) || s < 0 || s > 1 {
			t.Errorf("σ(%g) = %g", x, s)
		}
	}
}

// TestExpInPlace bounds ExpInPlace's error against math.Exp (vector and
// scalar tail, 3e-7 relative like exp32), clamped outside [−87.33, 88.37].
func TestExpInPlace(t *testing.T) {
	xs := make([]float32, 1005)
	for i := range xs {
		xs[i] = float32(i-800) * 0.107
	}
	xs[0], xs[1], xs[1004] = -1e30, -200, 1e30
	ys := append([]float32(nil), xs...)
	ExpInPlace(ys)
	for i, x := range xs {
		c := math.Min(math.Max(float64(x), -87.33), 88.37)
		want := math.Exp(float64(float32(c)))
		if rel := math.Abs(float64(ys[i])-want) / want; rel > 3e-7 || math.IsInf(float64(ys[i]), 0) || ys[i] <= 0 {
			t.Errorf("e^%g: %g, want %g (relative error %.3g)", x, ys[i], want, rel)
		}
	}
}

// TestAffineMatchesGraph: the fused float32 products (Affine, AffineAct
// with each activation, AffineSum of two inputs, MatMul) against the
// float64 graph's MatMul, AddRow, Add, Sigmoid, Relu and Tanh: the loss
// Σ (y + c)² and every gradient.
func TestAffineMatchesGraph(t *testing.T) {
	defer func(v bool) { Float32Products = v }(Float32Products)
	const N, In, In2, P = 9, 6, 4, 5
	rng := rand.New(rand.NewSource(4))
	var ps nn.Params
	w := ps.New("w", In, P, optim.Free, rng)
	w2 := ps.New("w2", In2, P, optim.Free, rng)
	b := ps.New("b", 1, P, optim.Free, rng)
	input := func(name string, cols int) *optim.Param {
		x := optim.NewParam(name, N, cols, optim.Free)
		for j := range x.Data {
			x.Data[j] = rng.NormFloat64()
		}
		return x
	}
	x, x2 := input("x", In), input("x2", In2)
	c := make([]float64, N*P)
	for j := range c {
		c[j] = rng.NormFloat64()
	}
	layers := map[string]func(n *nn.Net) (*autodiff.Node, error){
		"affine":  func(n *nn.Net) (*autodiff.Node, error) { return Affine(n, n.P(x), w, b) },
		"sigmoid": func(n *nn.Net) (*autodiff.Node, error) { return AffineAct(n, n.P(x), w, b, ActSigmoid) },
		"relu":    func(n *nn.Net) (*autodiff.Node, error) { return AffineAct(n, n.P(x), w, b, ActReLU) },
		"tanh":    func(n *nn.Net) (*autodiff.Node, error) { return AffineAct(n, n.P(x), w, b, ActTanh) },
		"sum": func(n *nn.Net) (*autodiff.Node, error) {
			return AffineSum(n, []*autodiff.Node{n.P(x), n.P(x2)}, []*optim.Param{w, w2}, b)
		},
		"matmul": func(n *nn.Net) (*autodiff.Node, error) { return MatMul(n, n.P(x), n.P(w)) },
	}
	for name, layer := range layers {
		var res [2][]float64
		for i, f32 := range []bool{false, true} {
			Float32Products = f32
			n := nn.NewNet()
			y, err := layer(n)
			if err != nil {
				t.Fatal(err)
			}
			loss := n.Sum(n.Square(n.Add(y, n.Const("c", c, N, P))))
			_, nodes := n.Bound()
			m, err := n.Compile(loss, nodes)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Run(); err != nil {
				t.Fatal(err)
			}
			// The loss and the gradients: y itself may be overwritten in
			// place by the time the machine stops (dL/dy = 2(y + c) carries it).
			res[i] = append(res[i], autodiff.Value(loss)...)
			for j := range nodes {
				res[i] = append(res[i], m.Grad(j)...)
			}
			m.Close()
		}
		for j := range res[0] {
			if d := math.Abs(res[0][j] - res[1][j]); d > 1e-5*math.Max(1, math.Abs(res[0][j])) {
				t.Fatalf("%s: value %d: float64 %g, float32 %g", name, j, res[0][j], res[1][j])
			}
		}
	}
}

// TestStackBitwiseAcrossCores: the fused stack's output and gradients do
// not depend on how many cores split the units (what --resume relies on),
// one-directional and bidirectional.
func TestStackBitwiseAcrossCores(t *testing.T) {
	for _, bidir := range []bool{false, true} {
		const T, B, In, H = 40, 3, 24, 200 // N·H above the one-worker threshold
		rng := rand.New(rand.NewSource(8))
		var ps nn.Params
		o := Options{Hidden: H, Layers: 2, Activation: Identity, Dropout: 0.2, Bidirectional: bidir}
		enc, err := NewEncoder(&ps, "sru", In, o, rng)
		if err != nil {
			t.Fatal(err)
		}
		in := [][]float64{make([]float64, T*B*In), make([]float64, T*B)}
		for i := range in[0] {
			in[0][i] = rng.NormFloat64()
		}
		for i := range in[1] {
			in[1][i] = 1
		}
		in[1][len(in[1])-1] = 0
		for _, p := range ps.List {
			in = append(in, p.Data)
		}
		out := o.OutDim()
		dout := make([]float64, T*B*out)
		for i := range dout {
			dout[i] = rng.NormFloat64()
		}
		run := func(procs int) [][]float64 {
			defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
			drop := &Dropout{P: 0.2, keep: 1.25, masks: [][]float32{make([]float32, T*B*out)}}
			drop.Fill(rand.New(rand.NewSource(1)))
			s := newStack(enc, T, B, drop)
			h := make([]float64, T*B*out)
			s.Forward(h, in)
			din := make([][]float64, len(in))
			for i := range in {
				din[i] = make([]float64, len(in[i]))
			}
			s.Backward(din, dout, in)
			return append([][]float64{h}, din...)
		}
		a, b := run(1), run(4)
		for i := range a {
			for j := range a[i] {
				if math.Float64bits(a[i][j]) != math.Float64bits(b[i][j]) {
					t.Fatalf("bidirectional %v: array %d entry %d: 1 core %v, 4 cores %v", bidir, i, j, a[i][j], b[i][j])
				}
			}
		}
	}
}

// TestBidirectionalPadding: in a bidirectional stack an utterance's outputs
// do not depend on the padding after it or on the other utterances of the
// batch — the reverse direction starts at the utterance's own last real
// frame. The utterance alone (no padding) is the reference, bitwise.
func TestBidirectionalPadding(t *testing.T) {
	const T, B, In, H, L = 9, 3, 6, 5, 4 // utterance 1 has L frames
	rng := rand.New(rand.NewSource(21))
	var ps nn.Params
	o := Options{Hidden: H, Layers: 2, Activation: Identity, Bidirectional: true}
	enc, err := NewEncoder(&ps, "sru", In, o, rng)
	if err != nil {
		t.Fatal(err)
	}
	params := func(in [][]float64) [][]float64 {
		for _, p := range ps.List {
			in = append(in, p.Data)
		}
		return in
	}
	run := func(t, b int, x, mask []float64) []float64 {
		s := newStack(enc, t, b, nil)
		out := make([]float64, t*b*o.OutDim())
		s.Forward(out, params([][]float64{x, mask}))
		return out
	}
	x := make([]float64, T*B*In)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	mask := make([]float64, T*B)
	for i := 0; i < T; i++ {
		mask[i*B], mask[i*B+2] = 1, 1
		if i < L {
			mask[i*B+1] = 1
		}
	}
	batch := run(T, B, x, mask)
	alone := make([]float64, L*In)
	ones := make([]float64, L)
	for i := 0; i < L; i++ {
		copy(alone[i*In:(i+1)*In], x[(i*B+1)*In:(i*B+2)*In])
		ones[i] = 1
	}
	ref := run(L, 1, alone, ones)
	d := o.OutDim()
	for i := 0; i < T; i++ {
		for j := 0; j < d; j++ {
			got := batch[(i*B+1)*d+j]
			want := 0.0
			if i < L {
				want = ref[i*d+j]
			}
			if got != want {
				t.Fatalf("frame %d output %d: in the batch %v, alone %v", i, j, got, want)
			}
		}
	}
}
