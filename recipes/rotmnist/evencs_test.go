package rotmnist

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/strode"
)

// TestEvenCS: truth that is itself evenly spaced with an offset on the grid
// scores 1 at that offset; the score is never below the index sequence's
// (c = 0 is on the grid); constant truth is found at c = ∞.
func TestEvenCS(t *testing.T) {
	const tol = 1e-12
	rng := rand.New(rand.NewSource(1))
	shifted := make([][]float64, 20)
	for s := range shifted {
		a := 10 + 90*rng.Float64() // degrees per frame, per video
		shifted[s] = make([]float64, 6)
		for i := range shifted[s] {
			shifted[s][i] = a * (7.5 + float64(i))
		}
	}
	if cs, c := EvenCS(shifted); math.Abs(cs-1) > tol || math.Abs(c-7.5) > 1e-9 {
		t.Errorf("evenly spaced truth with offset 7.5: CS %v at c = %v, want 1 at 7.5", cs, c)
	}
	random := make([][]float64, 50)
	index := make([][]float64, 50)
	for s := range random {
		random[s] = make([]float64, 6)
		index[s] = make([]float64, 6)
		for i := range random[s] {
			random[s][i] = 180 + 180*rng.Float64()
			index[s][i] = float64(i)
		}
	}
	if cs, _ := EvenCS(random); cs < strode.CosineSimilarity(index, random)-tol {
		t.Errorf("EvenCS %v below the index sequence's %v", cs, strode.CosineSimilarity(index, random))
	}
	constant := [][]float64{{3, 3, 3, 3}, {5, 5, 5, 5}}
	if cs, c := EvenCS(constant); math.Abs(cs-1) > tol || !math.IsInf(c, 1) {
		t.Errorf("constant truth: CS %v at c = %v, want 1 at +Inf", cs, c)
	}
}
