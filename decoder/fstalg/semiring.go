package fstalg

import (
	"math"

	"github.com/strode-asr/strode/decoder/fst"
)

// Semiring selects how the weights of alternative paths add up.
type Semiring int

const (
	// Tropical: Plus is min (the best path), OpenFst's TropicalWeight.
	Tropical Semiring = iota
	// Log: Plus is -log(e^-a + e^-b) (the total probability), OpenFst's
	// LogWeight; Kaldi's fstdeterminizestar --use-log=true.
	Log
)

// Plus adds two costs in the semiring.
func (s Semiring) Plus(a, b float32) float32 {
	if s == Log {
		return fst.LogPlus(a, b)
	}
	return min(a, b)
}

// approxEqual compares costs within delta, as OpenFst's ApproxEqual
// (two Zeros are equal).
func approxEqual(a, b, delta float32) bool {
	if a == b {
		return true
	}
	return math.Abs(float64(a-b)) <= float64(delta)
}

// quantize rounds a finite cost to a multiple of delta (OpenFst's
// Quantize: floor(w/delta + 0.5)·delta); infinities stay.
func quantize(w, delta float32) float32 {
	if math.IsInf(float64(w), 0) || math.IsNaN(float64(w)) {
		return w
	}
	return float32(math.Floor(float64(w/delta+0.5))) * delta
}
