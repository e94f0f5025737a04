package strode

import (
	"math"
	"math/rand"
	"strings"
	"testing"
)

// TestVariants: an unknown variant is refused naming the known ones, every
// known one builds, only phase-state has the phase parameters, and its
// initial gaps are ≈ ln 2.
func TestVariants(t *testing.T) {
	o := DefaultSequentialOptions()
	if o.Variant != VariantPaper {
		t.Fatalf("default variant %q, want paper", o.Variant)
	}
	o.Variant = "skew-ode"
	if _, err := NewSequential(o, rand.New(rand.NewSource(1))); err == nil || !strings.Contains(err.Error(), "paper or phase-state") {
		t.Fatalf("unknown variant: error %v", err)
	}
	models := map[Variant]*Sequential{}
	for _, v := range Variants {
		o.Variant = v
		m, err := NewSequential(o, rand.New(rand.NewSource(1)))
		if err != nil {
			t.Fatalf("%s: %v", v, err)
		}
		if _, err := m.Build(2, 5, true); err != nil {
			t.Fatalf("%s: build: %v", v, err)
		}
		models[v] = m
	}
	// Φ's W1 and V3 at 0.01× keep every initial gap near softplus(0) =
	// ln 2; at their Glorot scale the gaps shrink along a sequence.
	seqs := [][][]float64{{{0}, {0.6}, {0.9}, {0.3}, {-0.5}}, {{0}, {0.2}, {-0.8}, {-0.4}, {0.7}}}
	for _, v := range Variants {
		bt, err := models[v].Build(2, 5, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := bt.Set(seqs); err != nil {
			t.Fatal(err)
		}
		if err := bt.Run(); err != nil {
			t.Fatal(err)
		}
		for s, ts := range bt.InferredTimes() {
			for i := 1; i < len(ts); i++ {
				g := ts[i] - ts[i-1]
				if v == VariantPhaseState && math.Abs(g-math.Ln2) > 0.1 {
					t.Errorf("phase-state: initial gap %d of sequence %d = %v, want ln 2 ± 0.1", i, s, g)
				}
				if v == VariantPaper && i == len(ts)-1 && g > 0.5*math.Ln2 {
					t.Errorf("paper: last initial gap of sequence %d = %v, want < ln 2 / 2", s, g)
				}
			}
		}
	}
	if models[VariantPaper].PhaseIn != nil || models[VariantPhaseState].PhaseIn == nil {
		t.Error("phase parameters belong to phase-state only")
	}
}
