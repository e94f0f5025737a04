package seqvideo

import (
	"math"
	"math/rand"
	"testing"
)

// TestRotateKernel: φ = 0 is the identity, φ = π/2 maps (x, y) to the value at
// (c − (y − c), c + (x − c)) exactly (a pixel permutation), and the gradients
// match central differences of the forward pass on a smooth frame.
func TestRotateKernel(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	f := make([]float64, FramePixels)
	for y := 0; y < ImageSize; y++ {
		for x := 0; x < ImageSize; x++ {
			f[y*ImageSize+x] = math.Sin(float64(x)/7) * math.Cos(float64(y)/5) * rng.Float64()
		}
	}
	k := rotateKernel{}
	out := make([]float64, FramePixels)
	k.Forward(out, [][]float64{f, {0}})
	for i := range f {
		if math.Abs(out[i]-f[i]) > 1e-12 {
			t.Fatalf("φ = 0: pixel %d %v, want %v", i, out[i], f[i])
		}
	}
	k.Forward(out, [][]float64{f, {math.Pi / 2}})
	for y := 0; y < ImageSize; y++ {
		for x := 0; x < ImageSize; x++ {
			want := f[x*ImageSize+(ImageSize-1-y)]
			if math.Abs(out[y*ImageSize+x]-want) > 1e-9 {
				t.Fatalf("φ = π/2: (%d, %d) %v, want %v", x, y, out[y*ImageSize+x], want)
			}
		}
	}
	w := make([]float64, FramePixels)
	for i := range w {
		w[i] = rng.NormFloat64()
	}
	cost := func(img []float64, phi float64) float64 {
		k.Forward(out, [][]float64{img, {phi}})
		s := 0.0
		for i, v := range out {
			s += w[i] * v
		}
		return s
	}
	phi := 0.37
	din := [][]float64{make([]float64, FramePixels), {0}}
	k.Forward(out, [][]float64{f, {phi}})
	k.Backward(din, w, [][]float64{f, {phi}})
	const h = 1e-6
	fd := (cost(f, phi+h) - cost(f, phi-h)) / (2 * h)
	if math.Abs(fd-din[1][0]) > 1e-4*math.Max(1, math.Abs(fd)) {
		t.Errorf("d/dφ = %v, finite difference %v", din[1][0], fd)
	}
	for _, i := range []int{0, 100, 2080, 2081, 4000} {
		g := append([]float64(nil), f...)
		g[i] += h
		up := cost(g, phi)
		g[i] -= 2 * h
		down := cost(g, phi)
		if fd := (up - down) / (2 * h); math.Abs(fd-din[0][i]) > 1e-6*math.Max(1, math.Abs(fd)) {
			t.Errorf("d/dframe[%d] = %v, finite difference %v", i, din[0][i], fd)
		}
	}
}
