package sru

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// TestStackInputGradient: with Encoder.InputGrad the fused float32 stack
// gives the float64 graph's gradient for its input x (relative to the
// largest entry, 1e-3 as TestStackMatchesGraph's parameter gradients),
// for K = 4 and K = 3 first layers, unidirectional and bidirectional, with
// padding and dropout; without it the stack leaves x's gradient at zero.
func TestStackInputGradient(t *testing.T) {
	defer func(v bool) { Float32Products = v }(Float32Products)
	for _, tc := range []struct {
		name  string
		in    int
		act   string
		bidir bool
	}{
		{"k4", 5, Identity, false},
		{"k3", 8, Tanh, false},
		{"bidir-k4", 21, Identity, true},
		{"bidir-k3", 16, Identity, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			const T, B, H = 6, 3, 8
			rng := rand.New(rand.NewSource(5))
			var ps nn.Params
			o := Options{Hidden: H, Layers: 2, Activation: tc.act, HighwayBias: -0.5, Dropout: 0.25, Bidirectional: tc.bidir}
			enc, err := NewEncoder(&ps, "sru", tc.in, o, rng)
			if err != nil {
				t.Fatal(err)
			}
			x := optim.NewParam("x", T*B, tc.in, optim.Free)
			for j := range x.Data {
				x.Data[j] = rng.NormFloat64()
			}
			mask := make([]float64, T*B)
			for b, l := range []int{T, T - 2, 1} {
				for i := 0; i < l; i++ {
					mask[i*B+b] = 1
				}
			}
			w := make([]float64, T*B*o.OutDim())
			for j := range w {
				w[j] = rng.NormFloat64()
			}
			grad := func(f32, inputGrad bool) []float64 {
				Float32Products = f32
				enc.InputGrad = inputGrad
				n := nn.NewNet()
				xn := n.P(x)
				h, drop, err := enc.Apply(n, xn, n.Const("mask", mask, T*B, 1), T, B, true)
				if err != nil {
					t.Fatal(err)
				}
				drop.Fill(rand.New(rand.NewSource(3)))
				loss := n.Add(n.Sum(n.Mul(h, n.Const("w", w, T*B, o.OutDim()))), n.Sum(n.Square(h)))
				_, nodes := n.Bound() // x is the first bound parameter
				m, err := n.Compile(loss, nodes)
				if err != nil {
					t.Fatal(err)
				}
				defer m.Close()
				if err := m.Run(); err != nil {
					t.Fatal(err)
				}
				return append([]float64(nil), m.Grad(0)...)
			}
			want := grad(false, false)
			got := grad(true, true)
			scale := 0.0
			for _, v := range want {
				scale = math.Max(scale, math.Abs(v))
			}
			if scale == 0 {
				t.Fatal("the graph's input gradient is zero")
			}
			for j := range want {
				if d := math.Abs(want[j] - got[j]); d > 1e-3*scale {
					t.Fatalf("dx[%d]: float64 graph %g, float32 stack %g", j, want[j], got[j])
				}
			}
			for j, v := range grad(true, false) {
				if v != 0 {
					t.Fatalf("without InputGrad dx[%d] = %g, want 0", j, v)
				}
			}
		})
	}
}
