package hmm

import (
	"math"
	"testing"
)

// MleUpdate sets each transition-state's probabilities to the relative
// frequencies of its counts, floors them, and leaves states with too few
// counts alone.
func TestMleUpdate(t *testing.T) {
	tm := readObj(t, TransitionModelCodec, "testdata/mono.tm")
	stats := tm.InitStats()
	// AH's first state (transition-state 6 in kaldi-mini): self-loop 30, forward 10.
	self, fwd := tm.PairToTransitionID(6, 0), tm.PairToTransitionID(6, 1)
	if !tm.IsSelfLoop(self) || tm.IsSelfLoop(fwd) {
		t.Fatalf("transition-ids %d, %d of state 6 are not (self-loop, forward)", self, fwd)
	}
	stats[self], stats[fwd] = 30, 10
	// SIL's first state (four transitions): all counts on the self-loop.
	silSelf := tm.SelfLoopOf(1)
	stats[silSelf] = 100
	// State 7: 3 counts, under --transition-min-count 5.
	before := tm.TransitionProb(tm.PairToTransitionID(7, 0))
	stats[tm.PairToTransitionID(7, 0)] = 3
	impr, count, skipped, floored, err := tm.MleUpdate(stats, DefaultMleTransitionUpdateOptions())
	if err != nil {
		t.Fatal(err)
	}
	if count != 143 || impr <= 0 {
		t.Errorf("count %g, objective improvement %g; want 143 and > 0", count, impr)
	}
	if got := tm.TransitionProb(self); math.Abs(float64(got)-0.75) > 1e-6 {
		t.Errorf("self-loop probability %g, want 0.75", got)
	}
	// SIL: three transitions floored at 0.01, the self-loop gets the rest.
	if floored != 3 || math.Abs(float64(tm.TransitionProb(silSelf))-0.97) > 1e-3 {
		t.Errorf("floored %d, SIL self-loop %g; want 3 and about 0.97", floored, tm.TransitionProb(silSelf))
	}
	if got := tm.TransitionProb(tm.PairToTransitionID(7, 0)); got != before {
		t.Errorf("state 7 (3 counts) changed: %g -> %g", before, got)
	}
	// Every state without counts (all but three) is skipped too.
	if skipped < 1 {
		t.Errorf("skipped %d", skipped)
	}
	if _, _, _, _, err := tm.MleUpdate(stats[:5], DefaultMleTransitionUpdateOptions()); err == nil {
		t.Error("stats of the wrong size: no error")
	}
}
