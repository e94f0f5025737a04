package sru

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// gradCheck compares the graph gradient of loss with central finite
// differences for every entry of every parameter (at most maxPer each).
func gradCheck(t *testing.T, params []*optim.Param, loss func() (float64, error), maxPer int, tol float64) {
	t.Helper()
	if _, err := loss(); err != nil {
		t.Fatal(err)
	}
	grads := make([][]float64, len(params))
	for i, p := range params {
		grads[i] = append([]float64(nil), p.Grad...)
	}
	const h = 1e-6
	for i, p := range params {
		step := 1
		if len(p.Data) > maxPer {
			step = len(p.Data)/maxPer + 1
		}
		for j := 0; j < len(p.Data); j += step {
			v := p.Data[j]
			p.Data[j] = v + h
			lp, _ := loss()
			p.Data[j] = v - h
			lm, _ := loss()
			p.Data[j] = v
			num := (lp - lm) / (2 * h)
			an := grads[i][j]
			den := math.Max(math.Max(math.Abs(num), math.Abs(an)), 1e-4)
			if rel := math.Abs(num-an) / den; rel > tol {
				t.Errorf("%s[%d]: analytic %.8g numeric %.8g rel %.2g", p.Name, j, an, num, rel)
			}
		}
	}
}

func TestRecurrenceGradient(t *testing.T) {
	defer func(v bool) { Float32Products = v }(Float32Products)
	Float32Products = false
	for _, tc := range []struct {
		name   string
		in     int
		act    string
		masked bool
		bidir  bool
	}{
		{"k3-identity", 4, Identity, false, false},
		{"k3-tanh-masked", 4, Tanh, true, false},
		{"k4-highway-masked", 3, Identity, true, false},
		// Bidirectional: layer 0 has K = 4 (3 ≠ 2·4) or K = 3 (8 = 2·4),
		// layer 1 always K = 3 with each direction's half of x as highway.
		{"bidir-k4-masked", 3, Identity, true, true},
		{"bidir-k3-tanh-masked", 8, Tanh, true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const T, B, H = 5, 3, 4
			rng := rand.New(rand.NewSource(1))
			var ps nn.Params
			o := Options{Hidden: H, Layers: 2, Activation: tc.act, HighwayBias: -0.5, Bidirectional: tc.bidir}
			out := o.OutDim()
			enc, err := NewEncoder(&ps, "sru", tc.in, o, rng)
			if err != nil {
				t.Fatal(err)
			}
			// Non-zero biases so every path is exercised.
			for _, l := range enc.Layers {
				for d := 0; d < l.Dirs(); d++ {
					_, _, bias := l.direction(d)
					for j := range bias.Data {
						bias.Data[j] += 0.3 * rng.NormFloat64()
					}
				}
			}
			x := optim.NewParam("x", T*B, tc.in, optim.Free)
			for j := range x.Data {
				x.Data[j] = rng.NormFloat64()
			}
			mask := make([]float64, T*B)
			lengths := []int{T, T - 2, 1}
			if !tc.masked {
				lengths = []int{T, T, T}
			}
			for b, l := range lengths {
				for i := 0; i < l; i++ {
					mask[i*B+b] = 1
				}
			}
			n := nn.NewNet()
			xn := n.P(x)
			mn := n.Const("mask", mask, T*B, 1)
			h, _, err := enc.Apply(n, xn, mn, T, B, false)
			if err != nil {
				t.Fatal(err)
			}
			w := make([]float64, T*B*out)
			for j := range w {
				w[j] = rng.NormFloat64()
			}
			loss := n.Sum(n.Mul(h, n.Const("w", w, T*B, out)))
			loss = n.Add(loss, n.Sum(n.Square(h))) // a non-linear loss
			params, nodes := n.Bound()
			m, err := n.Compile(loss, nodes)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			run := func() (float64, error) {
				if err := m.Run(); err != nil {
					return 0, err
				}
				for i, p := range params {
					copy(p.Grad, m.Grad(i))
				}
				return autodiff.Value(loss)[0], nil
			}
			gradCheck(t, params, run, 40, 1e-3)
			// Padded frames give h = 0.
			hv := autodiff.Value(h)
			for r, mv := range mask {
				for j := 0; j < out; j++ {
					if mv == 0 && hv[r*out+j] != 0 {
						t.Fatalf("row %d is padded but h = %g", r, hv[r*out+j])
					}
				}
			}
		})
	}
}

// TestMaskedEqualsUnpadded checks that padding does not change the outputs
// of the real frames: an utterance alone equals the same utterance padded in
// a batch.
func TestMaskedEqualsUnpadded(t *testing.T) {
	const T, H = 6, 5
	rng := rand.New(rand.NewSource(2))
	s := Shape{T: T, B: 1, H: H, K: 4}
	u := make([]float64, T*4*H)
	for i := range u {
		u[i] = rng.NormFloat64()
	}
	wc := make([]float64, 2*H)
	bias := make([]float64, 2*H)
	for i := range wc {
		wc[i], bias[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	ones := make([]float64, T)
	for i := range ones {
		ones[i] = 1
	}
	h1 := make([]float64, T*H)
	s.Forward(u, nil, wc, bias, ones, h1, nil)
	// Batch of 2: utterance 0 is the same, utterance 1 is 3 frames then padding.
	s2 := Shape{T: T, B: 2, H: H, K: 4}
	u2 := make([]float64, 2*T*4*H)
	mask := make([]float64, 2*T)
	for t := 0; t < T; t++ {
		copy(u2[(2*t)*4*H:(2*t+1)*4*H], u[t*4*H:(t+1)*4*H])
		mask[2*t] = 1
		if t < 3 {
			mask[2*t+1] = 1
		}
		for j := 0; j < 4*H; j++ {
			u2[(2*t+1)*4*H+j] = rng.NormFloat64()
		}
	}
	h2 := make([]float64, 2*T*H)
	s2.Forward(u2, nil, wc, bias, mask, h2, nil)
	for i := 0; i < T; i++ {
		for j := 0; j < H; j++ {
			if h1[i*H+j] != h2[2*i*H+j] {
				t.Fatalf("frame %d unit %d: alone %g, in batch %g", i, j, h1[i*H+j], h2[2*i*H+j])
			}
		}
	}
}

// TestFloat32Products: the float32 product and its two backward products
// agree with the float64 graph to float32 precision.
func TestFloat32Products(t *testing.T) {
	defer func(v bool) { Float32Products = v }(Float32Products)
	rng := rand.New(rand.NewSource(5))
	a := optim.NewParam("a", 7, 5, optim.Free)
	b := optim.NewParam("b", 5, 3, optim.Free)
	for _, p := range []*optim.Param{a, b} {
		for j := range p.Data {
			p.Data[j] = rng.NormFloat64()
		}
	}
	w := make([]float64, 21)
	for j := range w {
		w[j] = rng.NormFloat64()
	}
	var res [2][]float64
	for i, f32 := range []bool{false, true} {
		Float32Products = f32
		n := nn.NewNet()
		y, err := MatMul(n, n.P(a), n.P(b))
		if err != nil {
			t.Fatal(err)
		}
		loss := n.Sum(n.Mul(y, n.Const("w", w, 7, 3)))
		_, nodes := n.Bound()
		m, err := n.Compile(loss, nodes)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		res[i] = append(append(append([]float64(nil), autodiff.Value(y)...), m.Grad(0)...), m.Grad(1)...)
		m.Close()
	}
	for j := range res[0] {
		if d := math.Abs(res[0][j] - res[1][j]); d > 1e-5*math.Max(1, math.Abs(res[0][j])) {
			t.Fatalf("value %d: float64 %g, float32 %g", j, res[0][j], res[1][j])
		}
	}
}
