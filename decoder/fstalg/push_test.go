package fstalg

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
)

func TestPushSpecialKeepsPathWeights(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	for trial := 0; trial < 30; trial++ {
		f := randomAcyclic(rng, 8, 16, 3, 0.2, false)
		fst.Connect(f)
		before := relation(t, f, Log)
		PushSpecial(f, 1e-6, 0)
		sameRelation(t, "push", relation(t, f, Log), before, 1e-3)
		if t.Failed() {
			t.Fatalf("trial %d failed", trial)
		}
	}
}

// On a strongly connected FST (final states return to the start) the
// iteration converges and every state's outgoing mass is the same.
func TestPushSpecialEqualizesStates(t *testing.T) {
	f := fst.NewVectorFst()
	for i := 0; i < 3; i++ {
		f.AddState()
	}
	f.Start = 0
	f.AddArc(0, fst.Arc{ILabel: 1, OLabel: 1, Weight: 0.5, NextState: 1})
	f.AddArc(0, fst.Arc{ILabel: 2, OLabel: 2, Weight: 2, NextState: 2})
	f.AddArc(1, fst.Arc{ILabel: 3, OLabel: 3, Weight: 1, NextState: 2})
	f.AddArc(1, fst.Arc{ILabel: 4, OLabel: 4, Weight: 3, NextState: 0})
	f.AddArc(2, fst.Arc{ILabel: 5, OLabel: 5, Weight: 0.25, NextState: 1})
	f.SetFinal(2, 1.5)
	PushSpecial(f, 1e-9, 0)
	var totals []float64
	for s := range f.States {
		acc := math.Inf(-1)
		if fw := f.States[s].Final; fw != fst.WeightZero {
			acc = logAdd(acc, -float64(fw))
		}
		for _, a := range f.States[s].Arcs {
			acc = logAdd(acc, -float64(a.Weight))
		}
		totals = append(totals, acc)
	}
	for s := 1; s < len(totals); s++ {
		if math.Abs(totals[s]-totals[0]) > 1e-4 {
			t.Fatalf("state totals %v differ", totals)
		}
	}
}
