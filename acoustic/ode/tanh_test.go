package ode

import (
	"math"
	"math/rand"
	"testing"
)

// tanhInputs are 2·10⁶ points: uniform in [−25, 25], log-uniform magnitudes
// in [1e-12, 1] of both signs, and the special values.
func tanhInputs() []float64 {
	rng := rand.New(rand.NewSource(1))
	x := []float64{0, math.Copysign(0, -1), 1e-300, -1e-300, 19.99, 20, 20.01, -20, 400, -400, math.Inf(1), math.Inf(-1)}
	for i := 0; i < 1e6; i++ {
		x = append(x, rng.Float64()*50-25)
	}
	for i := 0; i < 1e6; i++ {
		v := math.Pow(10, -12*rng.Float64())
		if i%2 == 1 {
			v = -v
		}
		x = append(x, v)
	}
	return append(x, 1, 2, 3) // a tail that is not a multiple of 4
}

// ulps is the distance between a and b in units in the last place of b.
func ulps(a, b float64) float64 {
	if a == b {
		return 0
	}
	return math.Abs(a-b) / (math.Nextafter(math.Abs(b), math.Inf(1)) - math.Abs(b))
}

// TestTanhAccuracy bounds tanh64 against math.Tanh (8 ulps; the measured
// maximum is logged) and checks that it is bitwise tanhOne, lane by lane,
// with the special values right.
func TestTanhAccuracy(t *testing.T) {
	x := tanhInputs()
	y := append([]float64(nil), x...)
	tanh64(y)
	worst, at := 0.0, 0.0
	for i, v := range x {
		if got := tanhOne(v); math.Float64bits(got) != math.Float64bits(y[i]) {
			t.Fatalf("tanh64(%v) = %v, tanhOne gives %v", v, y[i], got)
		}
		want := math.Tanh(v)
		if math.Signbit(y[i]) != math.Signbit(want) {
			t.Fatalf("tanh64(%v) = %v, want %v", v, y[i], want)
		}
		if u := ulps(y[i], want); u > worst {
			worst, at = u, v
		}
	}
	t.Logf("tanh64: max error %.2f ulp (at x = %v) over %d points", worst, at, len(x))
	if worst > 8 {
		t.Errorf("tanh64: max error %.2f ulp at x = %v, want ≤ 8", worst, at)
	}
	nan := []float64{math.NaN(), 1, 2, 3}
	tanh64(nan)
	if !math.IsNaN(nan[0]) {
		t.Errorf("tanh64(NaN) = %v", nan[0])
	}
}

// TestTanh32 checks tanh32 against math.Tanh rounded to float32: within 1
// ulp of float32 (one rounding of a value that is already within 8 ulps of
// float64).
func TestTanh32(t *testing.T) {
	x64 := tanhInputs()
	x := make([]float32, len(x64))
	for i, v := range x64 {
		x[i] = float32(v)
	}
	y := append([]float32(nil), x...)
	tanh32(y)
	for i, v := range x {
		want := float32(math.Tanh(float64(v)))
		if got := float32(tanhOne(float64(v))); got != y[i] {
			t.Fatalf("tanh32(%v) = %v, tanhOne gives %v", v, y[i], got)
		}
		if d := math.Abs(float64(y[i] - want)); d > 0 && d > float64(math.Nextafter32(float32(math.Abs(float64(want))), 2)-float32(math.Abs(float64(want)))) {
			t.Fatalf("tanh32(%v) = %v, want %v", v, y[i], want)
		}
	}
}

func BenchmarkTanh(b *testing.B) {
	x := make([]float64, 45000)
	rng := rand.New(rand.NewSource(1))
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	y := make([]float64, len(x))
	b.Run("math.Tanh", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				y[i] = math.Tanh(v)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
	})
	b.Run("tanh64", func(b *testing.B) {
		for b.Loop() {
			copy(y, x)
			tanh64(y)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
	})
	y32 := make([]float32, len(x))
	b.Run("tanh32", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x {
				y32[i] = float32(v)
			}
			tanh32(y32)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
	})
}
