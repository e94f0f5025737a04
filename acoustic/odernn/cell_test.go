package odernn

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// The streaming cell, fed one utterance's frames one at a time, gives the
// fused cell's states (B = 1, float32) bit for bit, and the float32 cell
// is the float64 one to float32 rounding: online decoding of an odernn
// model is its offline forward pass.
func TestStreamMatchesCell(t *testing.T) {
	const T, S, H, K = 7, 3, 4, 3
	rng := rand.New(rand.NewSource(9))
	fill := func(v []float64, scale float64) []float64 {
		for i := range v {
			v[i] = scale * rng.NormFloat64()
		}
		return v
	}
	var ps nn.Params
	var fo [3]*nn.Linear
	fo[0] = nn.NewLinear(&ps, "ode.0", S, H, rng)
	fo[1] = nn.NewLinear(&ps, "ode.1", H, H, rng)
	fo[2] = nn.NewLinear(&ps, "ode.2", H, S, rng)
	for _, l := range fo {
		fill(l.B.Data, 0.3)
	}
	v := optim.NewParam("v", 1, S, optim.Free)
	fill(v.Data, 0.5)
	u := fill(make([]float64, T*2*S), 1)
	mask := make([]float64, T)
	for i := range mask {
		mask[i] = 1
	}
	in := [][]float64{u, v.Data, mask, fo[0].W.Data, fo[0].B.Data, fo[1].W.Data, fo[1].B.Data, fo[2].W.Data, fo[2].B.Data}
	shapes := [][2]int{{T, 2 * S}, {1, S}, {T, 1}, {S, H}, {1, H}, {H, H}, {1, H}, {H, S}, {1, S}}
	run := func(float32Products bool) []float64 {
		c := NewCell(T, 1, S, H, K, float32Products)
		if r, cols, err := c.Shape(shapes); err != nil || r != T || cols != S {
			t.Fatalf("shape %d×%d, %v", r, cols, err)
		}
		out := make([]float64, T*S)
		c.Forward(out, in)
		return out
	}
	z32, z64 := run(true), run(false)
	st := NewStream(v, fo, K)
	for i := range T {
		frame := make([]float32, 2*S)
		for j := range frame {
			frame[j] = float32(u[i*2*S+j])
		}
		for j, zj := range st.Step(frame) {
			if float64(zj) != z32[i*S+j] {
				t.Errorf("frame %d z[%d]: stream %v, cell %v", i, j, zj, z32[i*S+j])
			}
			if d := math.Abs(z64[i*S+j] - z32[i*S+j]); d > 1e-5 {
				t.Errorf("frame %d z[%d]: float64 cell %v, float32 %v", i, j, z64[i*S+j], z32[i*S+j])
			}
		}
	}
	// Reset starts the next utterance: its first frame has no past state.
	st.Reset()
	first := make([]float32, 2*S)
	for j := range first {
		first[j] = float32(u[j])
	}
	for j, zj := range st.Step(first) {
		if float64(zj) != z32[j] {
			t.Errorf("after Reset, z[%d] = %v, want the first frame's %v", j, zj, z32[j])
		}
	}
}
