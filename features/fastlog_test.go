package features

import (
	"math"
	"math/rand/v2"
	"testing"
)

// log32 gives float32(math.Log(x)) for float values x across the range
// the features see (FLT_EPSILON up to the float maximum), and math.Log's
// answer for the special values.
func TestLog32(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	mismatches := 0
	const n = 1000000
	for i := 0; i < n; i++ {
		// Uniform in the exponent and the mantissa.
		x := float64(float32(math.Exp(rng.Float64()*(88.7+15.9) - 15.9)))
		if i < 1000 {
			x = float64(math.Nextafter32(1, 2) + float32(i)*1e-7) // near 1, where log is tiny
		}
		got, want := log32(x), float32(math.Log(x))
		if got != want {
			mismatches++
			if d := math.Abs(float64(got - want)); d > float64(math.Nextafter32(want, float32(math.Inf(1)))-want)*1.01 {
				t.Fatalf("log32(%v) = %v, want %v (more than one ulp)", x, got, want)
			}
		}
	}
	if mismatches > 0 {
		t.Errorf("%d of %d values one ulp off", mismatches, n)
	}
	for _, x := range []float64{0, -1, math.Inf(1), math.NaN(), 1, float32Epsilon, math.MaxFloat32, 5e-324} {
		got, want := log32(x), float32(math.Log(x))
		if got != want && !(math.IsNaN(float64(got)) && math.IsNaN(float64(want))) {
			t.Errorf("log32(%v) = %v, want %v", x, got, want)
		}
	}
}

func BenchmarkLog32(b *testing.B) {
	xs := make([]float64, 1024)
	rng := rand.New(rand.NewPCG(1, 1))
	for i := range xs {
		xs[i] = float64(float32(math.Exp(rng.Float64() * 30)))
	}
	out := make([]float32, len(xs))
	b.Run("log32", func(b *testing.B) {
		for b.Loop() {
			for i, x := range xs {
				out[i] = log32(x)
			}
		}
	})
	b.Run("math.Log", func(b *testing.B) {
		for b.Loop() {
			for i, x := range xs {
				out[i] = float32(math.Log(x))
			}
		}
	})
}

// logFloorVec (AVX2 four at a time where available) gives log32's bits for
// the floored float energies, including values below the floor and huge
// ones.
func TestLogFloorVecMatchesLog32(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 16))
	for _, n := range []int{0, 1, 3, 4, 5, 23, 40, 1000} {
		src := make([]float64, n)
		for i := range src {
			switch i % 7 {
			case 0:
				src[i] = rng.Float64() * 1e-8 // below FLT_EPSILON
			case 1:
				src[i] = math.Exp(rng.Float64() * 88)
			default:
				src[i] = math.Exp(rng.Float64()*60 - 10)
			}
		}
		got := make([]float32, n)
		done := 0
		if useAVX2 {
			done = logFloorVec(got, src)
		}
		for i := range src[:done] {
			want := log32(max(float64(float32(src[i])), float32Epsilon))
			if math.Float32bits(got[i]) != math.Float32bits(want) {
				t.Fatalf("n=%d: logFloorVec(%v) = %v, log32 %v", n, src[i], got[i], want)
			}
		}
	}
}
