package pointproc

import (
	"math"
	"math/rand"
	"testing"
)

// TestRates compares empirical rates with theory: λ for Poisson, the
// stationary rate μ/(1−α) for Hawkes, and the compensator check that
// Λ(t_i) − Λ(t_{i−1}) are Exp(1) (mean 1) for Hawkes.
func TestRates(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	n := 200000
	if testing.Short() {
		n = 40000
	}
	tests := []struct {
		name string
		p    Process
		rate float64
	}{
		{"poisson", Poisson{Rate: 10}, 10},
		{"hawkes", Hawkes{Mu: 10, Alpha: 0.5, Beta: 1}, 20},
		{"hawkes-fast", Hawkes{Mu: 2, Alpha: 0.3, Beta: 5}, 2 / 0.7},
	}
	for _, tc := range tests {
		ev := tc.p.Events(rng, n)
		for i := 1; i < len(ev); i++ {
			if ev[i] <= ev[i-1] {
				t.Fatalf("%s: events not increasing at %d", tc.name, i)
			}
		}
		// Discard a burn-in so the Hawkes process is near stationarity.
		burn := n / 10
		got := float64(n-burn) / (ev[n-1] - ev[burn-1])
		if math.Abs(got-tc.rate)/tc.rate > 0.03 {
			t.Errorf("%s: empirical rate %.4f, theory %.4f", tc.name, got, tc.rate)
		}
	}
	// Time rescaling: compensator increments of a Hawkes process are Exp(1).
	h := Hawkes{Mu: 10, Alpha: 0.5, Beta: 1}
	ev := h.Events(rng, 20000)
	sum, prev, exc := 0.0, 0.0, 0.0
	for _, s := range ev {
		dt := s - prev
		// ∫ μ + exc·e^{−β(u−prev)} du over the gap.
		sum += h.Mu*dt + exc*(1-math.Exp(-h.Beta*dt))/h.Beta
		exc = exc*math.Exp(-h.Beta*dt) + h.Alpha*h.Beta
		prev = s
	}
	if mean := sum / float64(len(ev)); math.Abs(mean-1) > 0.03 {
		t.Errorf("hawkes compensator increments mean %.4f, want 1", mean)
	}
	if got := h.Intensity(1, []float64{0.5, 2}); math.Abs(got-(10+0.5*math.Exp(-0.5))) > 1e-12 {
		t.Errorf("intensity %v", got)
	}
}

func TestSeeded(t *testing.T) {
	a := Hawkes{Mu: 10, Alpha: 0.5, Beta: 1}.Events(rand.New(rand.NewSource(3)), 50)
	b := Hawkes{Mu: 10, Alpha: 0.5, Beta: 1}.Events(rand.New(rand.NewSource(3)), 50)
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("same seed, different events at %d", i)
		}
	}
}
