package rotmnist

import (
	"math"
	"math/rand"
	"strings"
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

// TestPairedTable: differences are paired on the seed (a seed only one
// model ran is left out), with the Student-t interval of compare.Summarize.
func TestPairedTable(t *testing.T) {
	run := func(model string, seed int64, cs, gap, mse float64) *Result {
		return &Result{Subset: "hawkes", Model: model, Seed: seed, Test: Score{CS: cs, GapR: gap, MSE: mse}}
	}
	runs := map[tableKey][]*Result{
		{"hawkes", "node"}:   {run("node", 1, 0.9, 0, 0.007), run("node", 2, 0.9, 0, 0.008), run("node", 3, 0.9, 0, 0.007)},
		{"hawkes", "strode"}: {run("strode", 1, 0.95, 0.1, 0.006), run("strode", 2, 0.97, 0.3, 0.007), run("strode", 4, 0.99, 0.5, 0.001)},
	}
	got := PairedTable(runs)
	// seeds 1 and 2: CS +0.05, +0.07 → mean +0.06, s.e. 0.01, t(0.975, 1) = 12.706.
	want := "| hawkes | strode − node | 2 | +0.060 ± 0.010 [-0.067, +0.187] | +0.200 ± 0.100 [-1.071, +1.471] | -1.00 ± 0.00 [-1.00, -1.00] |"
	if !strings.Contains(got, want) {
		t.Errorf("got\n%s\nwant the row\n%s", got, want)
	}
	if PairedTable(map[tableKey][]*Result{{"exp", "node"}: {run("node", 1, 0.9, 0, 0.007)}}) != "" {
		t.Error("no pair ran: want no table")
	}
}

// TestScheduleGapR: times that are one schedule for every video score 1;
// noise around a flat schedule scores about 0.
func TestScheduleGapR(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	fixed := make([][]float64, 30)
	noisy := make([][]float64, 3000)
	for s := range fixed {
		fixed[s] = []float64{1, 1.77, 3.13, 5.53, 9.77, 17.29}
	}
	for s := range noisy {
		noisy[s] = make([]float64, 6)
		for i := range noisy[s] {
			noisy[s][i] = float64(i) + 0.3*rng.NormFloat64()
		}
	}
	// Every gap equals the schedule's (spread across frames only): r = 1.
	if r := ScheduleGapR(fixed); math.Abs(r-1) > 1e-12 {
		t.Errorf("one schedule for every video: gap r %v, want 1", r)
	}
	if r := ScheduleGapR(noisy); math.Abs(r) > 0.05 {
		t.Errorf("noise around even gaps: gap r %v, want ≈ 0 (|r| ≤ 0.05 at 15,000 gaps)", r)
	}
}
