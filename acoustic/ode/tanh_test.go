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

// TestTanh32 checks tanh32 against math.Tanh rounded to float32 (at most 4
// float32 ulps; the measured maximum is logged), the special values, and
// that an element's result does not depend on its position (vector body or
// padded tail).
func TestTanh32(t *testing.T) {
	x64 := tanhInputs()
	x := make([]float32, len(x64))
	for i, v := range x64 {
		x[i] = float32(v)
	}
	y := append([]float32(nil), x...)
	tanh32(y)
	worst, at := 0.0, float32(0)
	for i, v := range x {
		want := float32(math.Tanh(float64(v)))
		if math.Signbit(float64(y[i])) != math.Signbit(float64(want)) {
			t.Fatalf("tanh32(%v) = %v, want %v", v, y[i], want)
		}
		ulp := float64(math.Nextafter32(float32(math.Abs(float64(want))), 2) - float32(math.Abs(float64(want))))
		if u := math.Abs(float64(y[i])-float64(want)) / ulp; u > worst {
			worst, at = u, v
		}
	}
	t.Logf("tanh32: max error %.2f float32 ulp (at x = %v) over %d points", worst, at, len(x))
	if worst > 4 {
		t.Errorf("tanh32: max error %.2f ulp at x = %v, want ≤ 4", worst, at)
	}
	// The same values shifted by one position: body and tail swap.
	z := append([]float32{0}, x...)
	tanh32(z)
	for i := range x {
		if math.Float32bits(z[i+1]) != math.Float32bits(y[i]) {
			t.Fatalf("tanh32(%v) depends on its position: %v and %v", x[i], y[i], z[i+1])
		}
	}
	nan := []float32{float32(math.NaN()), float32(math.Inf(1)), float32(math.Inf(-1)), float32(math.Copysign(0, -1))}
	tanh32(nan)
	if !math.IsNaN(float64(nan[0])) || nan[1] != 1 || nan[2] != -1 || !math.Signbit(float64(nan[3])) || nan[3] != 0 {
		t.Errorf("tanh32(NaN, +Inf, −Inf, −0) = %v", nan)
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
	x32, y32 := make([]float32, len(x)), make([]float32, len(x))
	for i, v := range x {
		x32[i] = float32(v)
	}
	b.Run("tanh32", func(b *testing.B) {
		for b.Loop() {
			copy(y32, x32)
			tanh32(y32)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(x)), "ns/value")
	})
}
