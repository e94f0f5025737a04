package fstalg

import (
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
)

// bruteCompose composes two relations: min over y of a(x,y) + b(y,z).
func bruteCompose(t *testing.T, a, b *fst.VectorFst) map[string]float32 {
	type pair struct{ in, out string }
	split := func(rel map[string]float32) map[pair]float32 {
		m := map[pair]float32{}
		for k, w := range rel {
			var p pair
			for i := 0; i+2 <= len(k); i++ {
				if k[i:i+2] == "->" {
					p = pair{k[:i], k[i+2:]}
				}
			}
			m[p] = w
		}
		return m
	}
	ra, rb := split(relation(t, a, Tropical)), split(relation(t, b, Tropical))
	out := map[string]float32{}
	for pa, wa := range ra {
		for pb, wb := range rb {
			if pa.out != pb.in {
				continue
			}
			k := pa.in + "->" + pb.out
			old, ok := out[k]
			if !ok {
				old = fst.WeightZero
			}
			out[k] = min(old, wa+wb)
		}
	}
	return out
}

func TestComposeRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(7))
	for trial := 0; trial < 40; trial++ {
		a := randomAcyclic(rng, 6, 12, 3, 0.3, false)
		b := randomAcyclic(rng, 6, 12, 3, 0.3, false)
		c, err := Compose(a, b, DefaultComposeOptions())
		if err != nil {
			t.Fatal(err)
		}
		sameRelation(t, "compose vs brute force", relation(t, c, Tropical), bruteCompose(t, a, b), 1e-4)
		if trial < 10 {
			// OpenFst's fstcompose uses the same sequence filter: the same
			// relation, and the same number of states and arcs.
			as, bs := a.Copy(), b.Copy()
			fst.ArcSortOutput(as)
			fst.ArcSortInput(bs)
			d := openFst(t, "fstcompose", nil, as, bs)
			sameRelation(t, "compose vs fstcompose", relation(t, c, Tropical), relation(t, d, Tropical), 1e-4)
			if c.NumStates() != d.NumStates() || c.NumArcs() != d.NumArcs() {
				t.Errorf("trial %d: %d states %d arcs, fstcompose %d states %d arcs", trial, c.NumStates(), c.NumArcs(), d.NumStates(), d.NumArcs())
			}
		}
		if t.Failed() {
			t.Fatalf("trial %d failed", trial)
		}
	}
}

// functionalRandom returns a random acyclic transducer whose output is a
// function of its input: each arc's output is a fixed map of its input
// label (some labels map to epsilon, some epsilons to a label), so paths
// with equal inputs have equal outputs.
func functionalRandom(rng *rand.Rand, nStates, nArcs int) *fst.VectorFst {
	f := randomAcyclic(rng, nStates, nArcs, 4, 0.25, true)
	out := []fst.Label{0, 7, 0, 9, 8} // by input label 0..4
	for s := range f.States {
		for i := range f.States[s].Arcs {
			f.States[s].Arcs[i].OLabel = out[f.States[s].Arcs[i].ILabel]
		}
	}
	return f
}

func TestDeterminizeStarRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	for trial := 0; trial < 60; trial++ {
		var f *fst.VectorFst
		if trial%2 == 0 {
			f = randomAcyclic(rng, 7, 14, 3, 0.3, true)
		} else {
			f = functionalRandom(rng, 7, 14)
		}
		for _, sr := range []Semiring{Tropical, Log} {
			d, err := DeterminizeStar(f, DeterminizeOptions{Semiring: sr})
			if err != nil {
				t.Fatalf("trial %d: %v", trial, err)
			}
			if !isInputDeterministic(d) {
				t.Fatalf("trial %d: result not input-deterministic", trial)
			}
			sameRelation(t, "determinize", relation(t, d, sr), relation(t, f, sr), 2e-3)
		}
		if trial%2 == 0 && trial < 20 {
			// Acceptor: equivalent to OpenFst's rmepsilon + determinize.
			d, _ := DeterminizeStar(f, DeterminizeOptions{Semiring: Tropical})
			ref := openFst(t, "fstrmepsilon", nil, f)
			ref = openFst(t, "fstdeterminize", nil, ref)
			if !openFstBool(t, "fstequivalent", nil, d, ref) {
				t.Errorf("trial %d: not fstequivalent to fstdeterminize(fstrmepsilon)", trial)
			}
		}
		if t.Failed() {
			t.Fatalf("trial %d failed", trial)
		}
	}
}

func TestDeterminizeStarNonFunctional(t *testing.T) {
	f := fst.NewVectorFst()
	s0, s1 := f.AddState(), f.AddState()
	f.Start = s0
	f.SetFinal(s1, 0)
	f.AddArc(s0, fst.Arc{ILabel: 1, OLabel: 2, NextState: s1})
	f.AddArc(s0, fst.Arc{ILabel: 1, OLabel: 3, NextState: s1})
	if _, err := DeterminizeStar(f, DefaultDeterminizeOptions()); err == nil {
		t.Fatal("non-functional input accepted")
	}
}

func TestMinimizeEncodedRandom(t *testing.T) {
	rng := rand.New(rand.NewSource(13))
	for trial := 0; trial < 40; trial++ {
		f := functionalRandom(rng, 8, 18)
		d, err := DeterminizeStar(f, DeterminizeOptions{Semiring: Tropical})
		if err != nil {
			t.Fatal(err)
		}
		m := d.Copy()
		MinimizeEncoded(m, fst.KDelta)
		if m.NumStates() > d.NumStates() {
			t.Fatalf("trial %d: minimization grew %d -> %d states", trial, d.NumStates(), m.NumStates())
		}
		sameRelation(t, "minimize", relation(t, m, Tropical), relation(t, d, Tropical), 1e-3)
		again := m.Copy()
		MinimizeEncoded(again, fst.KDelta)
		if again.NumStates() != m.NumStates() {
			t.Fatalf("trial %d: not idempotent: %d then %d states", trial, m.NumStates(), again.NumStates())
		}
		if t.Failed() {
			t.Fatalf("trial %d failed", trial)
		}
	}
}

// Unweighted deterministic acceptors: the minimal DFA is unique, so our
// state count must equal fstminimize's and the two must be isomorphic.
func TestMinimizeEncodedMatchesOpenFst(t *testing.T) {
	rng := rand.New(rand.NewSource(17))
	for trial := 0; trial < 10; trial++ {
		f := randomAcyclic(rng, 9, 20, 2, 0, true)
		for s := range f.States {
			for i := range f.States[s].Arcs {
				f.States[s].Arcs[i].Weight = 0
			}
			if f.States[s].Final != fst.WeightZero {
				f.States[s].Final = 0
			}
		}
		d, err := DeterminizeStar(f, DeterminizeOptions{Semiring: Tropical})
		if err != nil {
			t.Fatal(err)
		}
		m := d.Copy()
		MinimizeEncoded(m, fst.KDelta)
		ref := openFst(t, "fstminimize", nil, d)
		if m.NumStates() != ref.NumStates() {
			t.Errorf("trial %d: %d states, fstminimize %d", trial, m.NumStates(), ref.NumStates())
		}
		if !openFstBool(t, "fstisomorphic", nil, m, ref) {
			t.Errorf("trial %d: not isomorphic to fstminimize's result", trial)
		}
	}
}

func TestRemoveEpsLocal(t *testing.T) {
	rng := rand.New(rand.NewSource(19))
	for trial := 0; trial < 40; trial++ {
		f := randomAcyclic(rng, 8, 14, 3, 0.4, false)
		before := relation(t, f, Tropical)
		n, a := f.NumStates(), f.NumArcs()
		RemoveEpsLocal(f)
		if f.NumArcs() > a || f.NumStates() > n {
			t.Fatalf("trial %d: grew from %d/%d to %d/%d", trial, n, a, f.NumStates(), f.NumArcs())
		}
		sameRelation(t, "rmepslocal", relation(t, f, Tropical), before, 1e-4)
		if t.Failed() {
			t.Fatalf("trial %d failed", trial)
		}
	}
}

func TestRemoveSymbols(t *testing.T) {
	f := fst.MakeLinearAcceptor([]int32{1, 5, 2, 6})
	RemoveSymbols(f, []fst.Label{6, 5})
	var got []fst.Label
	for s := range f.States {
		for _, a := range f.States[s].Arcs {
			got = append(got, a.ILabel)
		}
	}
	if want := []fst.Label{1, 0, 2, 0}; len(got) != 4 || got[0] != want[0] || got[1] != 0 || got[2] != 2 || got[3] != 0 {
		t.Fatalf("ilabels %v, want %v", got, want)
	}
}

// A zero-weight input-epsilon cycle has infinite mass in the log
// semiring: the closure stops once an added path changes a weight by less
// than delta (as OpenFst's shortest distance does), so determinization
// ends instead of looping.
func TestDeterminizeStarEpsilonCycle(t *testing.T) {
	f := fst.NewVectorFst()
	s0, s1 := f.AddState(), f.AddState()
	f.Start = s0
	f.SetFinal(s1, 0)
	f.AddArc(s0, fst.Arc{ILabel: 0, OLabel: 0, Weight: 0, NextState: s1})
	f.AddArc(s1, fst.Arc{ILabel: 0, OLabel: 0, Weight: 0, NextState: s0})
	f.AddArc(s1, fst.Arc{ILabel: 1, OLabel: 1, Weight: 0, NextState: s1})
	for _, sr := range []Semiring{Log, Tropical} {
		d, err := DeterminizeStar(f, DeterminizeOptions{Semiring: sr, MaxStates: 100})
		if err != nil {
			t.Fatal(err)
		}
		if !isInputDeterministic(d) {
			t.Fatal("not deterministic")
		}
	}
}
