package sru

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
)

// The stream's outputs, for any split of the utterance into pieces, are
// the fused stack's whole-utterance outputs bit for bit (inference, one
// utterance padded at the end as a forward pass pads it): K = 3 and K = 4,
// identity and tanh, a hidden size with a remainder after the eight-wide
// σ, and a block wide enough for the recurrence to split its units over
// the cores.
func TestStreamMatchesStack(t *testing.T) {
	for _, tc := range []struct {
		name   string
		in, h  int
		act    string
		frames int
	}{
		{"k4-identity", 21, 12, Identity, 37},
		{"k3-tanh", 12, 12, Tanh, 37},
		{"k4-wide", 40, 300, Identity, 61}, // 64 frames × 300 units: split over cores
	} {
		t.Run(tc.name, func(t *testing.T) {
			rng := rand.New(rand.NewSource(5))
			var ps nn.Params
			o := Options{Hidden: tc.h, Layers: 3, Activation: tc.act, HighwayBias: -0.5, Dropout: 0.1}
			enc, err := NewEncoder(&ps, "sru", tc.in, o, rng)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range ps.List {
				if p.Cols == 2*tc.h { // weight_c and bias: not the initial zeros
					for j := range p.Data {
						p.Data[j] += 0.3 * rng.NormFloat64()
					}
				}
			}
			T := tc.frames + 3 // padded rows after the utterance
			x32 := make([]float32, tc.frames*tc.in)
			x := make([]float64, T*tc.in)
			for j := range x32 {
				x32[j] = float32(rng.NormFloat64())
				x[j] = float64(x32[j])
			}
			mask := make([]float64, T)
			for i := 0; i < tc.frames; i++ {
				mask[i] = 1
			}
			n := nn.NewNet()
			h, _, err := enc.Apply(n, n.Const("x", x, T, tc.in), n.Const("mask", mask, T, 1), T, 1, false)
			if err != nil {
				t.Fatal(err)
			}
			m, err := n.Compile(h, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			if err := m.Run(); err != nil {
				t.Fatal(err)
			}
			want := autodiff.Value(h)
			st, err := enc.NewStream()
			if err != nil {
				t.Fatal(err)
			}
			for _, pieces := range [][]int{{tc.frames}, {1, 1, 5, 13, tc.frames - 20}, {18, 18, tc.frames - 36}} {
				st.Reset()
				var got []float32
				r := 0
				for _, k := range pieces {
					out, err := st.Forward(x32[r*tc.in:(r+k)*tc.in], k)
					if err != nil {
						t.Fatal(err)
					}
					got = append(got, out...)
					r += k
				}
				for j, v := range got {
					if math.Float32bits(v) != math.Float32bits(float32(want[j])) {
						t.Fatalf("pieces %v: value %d (frame %d): stream %v, stack %v", pieces, j, j/tc.h, v, want[j])
					}
				}
			}
		})
	}
}

func TestStreamRefusesBidirectional(t *testing.T) {
	var ps nn.Params
	enc, err := NewEncoder(&ps, "sru", 4, Options{Hidden: 4, Layers: 1, Activation: Identity, Bidirectional: true}, rand.New(rand.NewSource(1)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := enc.NewStream(); !errors.Is(err, ErrBidirectional) {
		t.Fatalf("bidirectional: %v", err)
	}
	enc.Opts.Bidirectional = false
	enc.Layers[0].WR = nil
	st, err := enc.NewStream()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := st.Forward(make([]float32, 5), 1); err == nil {
		t.Errorf("5 values for a frame of 4: no error")
	}
}
