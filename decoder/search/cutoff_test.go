package search

import (
	"math/rand"
	"slices"
	"testing"
)

// nthElement agrees with sorting for both cost types, with ties, for every
// n inside the slice and for n past its end (the maximum).
func TestNthElement(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	for _, size := range []int{1, 2, 3, 7, 64, 1000} {
		for trial := 0; trial < 5; trial++ {
			a64 := make([]float64, size)
			for i := range a64 {
				a64[i] = float64(rng.Intn(size/2 + 1)) // ties
			}
			sorted := slices.Sorted(slices.Values(a64))
			for _, n := range []int{0, size / 3, size / 2, size - 1, size, size + 5} {
				want := sorted[min(n, size-1)]
				if got := nthElement(slices.Clone(a64), n); got != want {
					t.Errorf("float64 size %d n %d: got %g, want %g", size, n, got, want)
				}
				a32 := make([]float32, size)
				for i, x := range a64 {
					a32[i] = float32(x)
				}
				if got := nthElement(a32, n); got != float32(want) {
					t.Errorf("float32 size %d n %d: got %g, want %g", size, n, got, want)
				}
			}
		}
	}
}
