package sru

import (
	"math"
	"math/rand"
	"testing"
)

// log32 against math.Log over positive floats of every magnitude, and the
// values the Gaussian term takes logs of (variances from 1e-3 up, 1 + e^−|a|
// in (1, 2]): within 2 ulp of the correctly rounded float log, or 1e-7
// absolute near log 1 = 0, where an ulp of the result vanishes.
func TestLog32(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	xs := []float32{1, 2, 0.5, math.Sqrt2, 1e-3, 1 + 1e-7, math.MaxFloat32, math.SmallestNonzeroFloat32, 1.1754944e-38}
	for range 1_000_000 {
		xs = append(xs, math.Float32frombits(uint32(rng.Int63n(0x7f800000-0x00800000))+0x00800000))
		xs = append(xs, 1+rng.Float32(), 1e-3+100*rng.Float32())
	}
	worst := 0.0
	for _, x := range xs {
		got, want := log32(x), float32(math.Log(float64(x)))
		ulp := math.Abs(float64(math.Nextafter32(want, float32(math.Inf(1))) - want))
		d := math.Abs(float64(got - want))
		if d > 2*ulp && d > 1e-7 {
			t.Fatalf("log32(%g) = %g, math.Log %g (%.1f ulp)", x, got, want, d/ulp)
		}
		if d > 1e-7 {
			worst = max(worst, d/ulp)
		}
	}
	t.Logf("worst %.2f ulp", worst)
	for _, x := range []float32{0, -1, float32(math.Inf(1)), float32(math.NaN())} {
		got, want := log32(x), float32(math.Log(float64(x)))
		if got != want && !(math.IsNaN(float64(got)) && math.IsNaN(float64(want))) {
			t.Errorf("log32(%g) = %g, want %g", x, got, want)
		}
	}
}

func BenchmarkLogInPlace(b *testing.B) {
	x := make([]float32, 4096)
	for i := range x {
		x[i] = 1e-3 + float32(i)
	}
	y := make([]float32, len(x))
	b.SetBytes(4 * int64(len(x)))
	for b.Loop() {
		copy(y, x)
		LogInPlace(y)
	}
}

// LogInPlace (the AVX2 path where there is one) against log32: the same
// to 1 ulp, special values in a block of eight included.
func TestLogInPlaceMatchesLog32(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	x := make([]float32, 100_003)
	for i := range x {
		x[i] = math.Float32frombits(uint32(rng.Int63n(0x7f800000-0x00800000)) + 0x00800000)
	}
	x[17], x[18], x[40], x[99], x[1000] = 0, -2, float32(math.Inf(1)), float32(math.NaN()), 1e-40
	y := append([]float32(nil), x...)
	LogInPlace(y)
	for i, v := range x {
		want := log32(v)
		if math.IsNaN(float64(want)) {
			if !math.IsNaN(float64(y[i])) {
				t.Fatalf("x[%d] = %g: got %g, want NaN", i, v, y[i])
			}
			continue
		}
		ulp := math.Abs(float64(math.Nextafter32(want, float32(math.Inf(1))) - want))
		if d := math.Abs(float64(y[i] - want)); d > ulp && d > 1e-7 {
			t.Fatalf("x[%d] = %g: got %g, log32 %g", i, v, y[i], want)
		}
	}
}
