package pointproc

import (
	"fmt"
	"math"
	"math/rand"
)

// Process generates event times on (0, ∞).
type Process interface {
	// Events returns the first n event times, increasing.
	Events(rng *rand.Rand, n int) []float64
	// Intensity is the conditional intensity at t given past events.
	Intensity(t float64, past []float64) float64
}

// Poisson is a homogeneous Poisson process with rate Rate.
type Poisson struct{ Rate float64 }

// Events draws n events with exponential gaps of mean 1/Rate.
func (p Poisson) Events(rng *rand.Rand, n int) []float64 {
	out := make([]float64, n)
	t := 0.0
	for i := range out {
		t += rng.ExpFloat64() / p.Rate
		out[i] = t
	}
	return out
}

// Intensity is the constant rate.
func (p Poisson) Intensity(float64, []float64) float64 { return p.Rate }

// Hawkes is a self-exciting process with exponential kernel α·β·e^{−βt}.
type Hawkes struct{ Mu, Alpha, Beta float64 }

// Validate checks that the process is stationary (0 ≤ α < 1) and positive.
func (h Hawkes) Validate() error {
	if !(h.Mu > 0) || !(h.Beta > 0) || h.Alpha < 0 || h.Alpha >= 1 {
		return fmt.Errorf("pointproc: Hawkes μ=%v α=%v β=%v: need μ > 0, β > 0, 0 ≤ α < 1", h.Mu, h.Alpha, h.Beta)
	}
	return nil
}

// Intensity is μ + Σ_{t_j < t} α·β·e^{−β(t − t_j)}.
func (h Hawkes) Intensity(t float64, past []float64) float64 {
	l := h.Mu
	for _, s := range past {
		if s < t {
			l += h.Alpha * h.Beta * math.Exp(-h.Beta*(t-s))
		}
	}
	return l
}

// Events simulates by Ogata's thinning: between events the intensity only
// decays, so its value just after the current time bounds it until the next
// event; propose t += Exp(bound), accept with probability λ(t)/bound. The
// excitation sum is kept recursively: S(t) = Σ α·β·e^{−β(t−t_j)}.
func (h Hawkes) Events(rng *rand.Rand, n int) []float64 {
	out := make([]float64, 0, n)
	t, exc := 0.0, 0.0 // exc = excitation at time t
	for len(out) < n {
		bound := h.Mu + exc
		w := rng.ExpFloat64() / bound
		t += w
		exc *= math.Exp(-h.Beta * w)
		if rng.Float64()*bound <= h.Mu+exc {
			out = append(out, t)
			exc += h.Alpha * h.Beta
		}
	}
	return out
}
