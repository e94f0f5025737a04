package lattice

import (
	"math"
	"math/rand"
	"slices"
	"testing"
)

// randomLattice is a small acyclic state-level lattice of frames frames:
// each state of frame t has 1–3 arcs to states of frame t+1 (some with an
// epsilon-input arc in between), random costs, one final state.
func randomLattice(rng *rand.Rand, frames, width int) *Lattice {
	l := &Lattice{}
	l.Start = l.AddState()
	cur := []int32{l.Start}
	for t := 0; t < frames; t++ {
		next := make([]int32, 1+rng.Intn(width))
		for i := range next {
			next[i] = l.AddState()
		}
		for _, s := range cur {
			for k := 0; k < 1+rng.Intn(3); k++ {
				to := next[rng.Intn(len(next))]
				w := Weight{Graph: float32(rng.Float64() * 3), Acoustic: float32(rng.Float64() * 5)}
				tid := int32(1 + rng.Intn(6))
				if rng.Intn(4) == 0 { // an epsilon arc first
					mid := l.AddState()
					l.States[s].Arcs = append(l.States[s].Arcs, Arc{OLabel: int32(1 + rng.Intn(3)), W: Weight{Graph: 0.5}, Next: mid})
					l.States[mid].Arcs = append(l.States[mid].Arcs, Arc{ILabel: tid, W: w, Next: to})
					continue
				}
				l.States[s].Arcs = append(l.States[s].Arcs, Arc{ILabel: tid, W: w, Next: to})
			}
		}
		cur = next
	}
	end := l.AddState()
	for _, s := range cur {
		l.States[s].Arcs = append(l.States[s].Arcs, Arc{W: Weight{Graph: 0.25}, Next: end})
	}
	l.States[end].Final = Weight{Graph: 0.125}
	return l
}

// satPaths enumerates every path: its transition-id per frame and its
// log-probability (minus its cost).
func satPaths(l *Lattice, s int32, tids []int32, logp float64, visit func([]int32, float64)) {
	st := &l.States[s]
	if !st.Final.IsZero() {
		visit(tids, logp-latCost(st.Final))
	}
	for _, a := range st.Arcs {
		next := tids
		if a.ILabel != 0 {
			next = append(slices.Clone(tids), a.ILabel)
		}
		satPaths(l, a.Next, next, logp-latCost(a.W), visit)
	}
}

// ForwardBackward's posteriors and total are those of enumerating every
// path: P(tid at t) = Σ paths with tid at t / Σ all paths.
func TestForwardBackwardEqualsPathEnumeration(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	for trial := 0; trial < 20; trial++ {
		l := randomLattice(rng, 2+rng.Intn(5), 3)
		if err := l.TopSort(); err != nil {
			t.Fatal(err)
		}
		var paths [][]int32
		var logps []float64
		satPaths(l, l.Start, nil, 0, func(tids []int32, lp float64) {
			paths, logps = append(paths, tids), append(logps, lp)
		})
		tot := math.Inf(-1)
		for _, lp := range logps {
			tot = logAdd(tot, lp)
		}
		var ac float64
		post, like, err := l.ForwardBackward(func(f string, a ...any) { t.Errorf(f, a...) }, &ac)
		if err != nil {
			t.Fatal(err)
		}
		if math.Abs(like-tot) > 1e-9*math.Abs(tot)+1e-12 {
			t.Errorf("trial %d: total log-like %g, enumeration %g", trial, like, tot)
		}
		want := make([]map[int32]float64, len(post))
		for i := range want {
			want[i] = map[int32]float64{}
		}
		for i, p := range paths {
			if len(p) != len(post) {
				t.Fatalf("trial %d: a path of %d frames, posteriors of %d", trial, len(p), len(post))
			}
			for f, tid := range p {
				want[f][tid] += math.Exp(logps[i] - tot)
			}
		}
		for f, frame := range post {
			sum := 0.0
			for i, e := range frame {
				if i > 0 && frame[i-1].ID >= e.ID {
					t.Errorf("trial %d frame %d: ids not sorted and merged: %v", trial, f, frame)
				}
				if math.Abs(float64(e.Weight)-want[f][e.ID]) > 1e-5 {
					t.Errorf("trial %d frame %d tid %d: posterior %g, enumeration %g", trial, f, e.ID, e.Weight, want[f][e.ID])
				}
				sum += float64(e.Weight)
			}
			if math.Abs(sum-1) > 1e-5 || len(frame) != len(want[f]) {
				t.Errorf("trial %d frame %d: %d entries summing to %g, enumeration has %d", trial, f, len(frame), sum, len(want[f]))
			}
		}
	}
}

// Kaldi's lattices: every frame's posteriors sum to one, the lattice is as
// long as its best path, and AcousticRescore with the costs Kaldi's arcs
// already carry gives them back.
func TestForwardBackwardAndRescoreOnKaldiLattices(t *testing.T) {
	for _, e := range readAll(t, "testdata/test5_lat_mapped.ark") {
		l := e.Compact.ToLattice()
		l.Scale(LatticeScale(1, 0.083333))
		if err := l.TopSort(); err != nil {
			t.Fatal(err)
		}
		post, _, err := l.ForwardBackward(func(f string, a ...any) { t.Errorf(f, a...) }, nil)
		if err != nil {
			t.Fatal(err)
		}
		ali, _, _, err := l.ShortestPath()
		if err != nil {
			t.Fatal(err)
		}
		if len(post) != len(ali) {
			t.Errorf("%s: %d frames of posteriors, best path %d", e.Key, len(post), len(ali))
		}
		for f, frame := range post {
			s := 0.0
			for _, p := range frame {
				s += float64(p.Weight)
			}
			if math.Abs(s-1) > 1e-4 {
				t.Errorf("%s frame %d: posteriors sum to %g", e.Key, f, s)
			}
		}
		// Rescore with each arc's own acoustic cost: unchanged; and the
		// frame count must match.
		orig := e.Compact.ToLattice()
		if err := orig.TopSort(); err != nil {
			t.Fatal(err)
		}
		re := e.Compact.ToLattice()
		if err := re.TopSort(); err != nil {
			t.Fatal(err)
		}
		want := map[[2]int32]float32{}
		for s := range orig.States {
			for i, a := range orig.States[s].Arcs {
				want[[2]int32{int32(s), int32(i)}] = a.W.Acoustic
			}
		}
		times, maxT, _ := re.StateTimes()
		if err := re.AcousticRescore(maxT+1, nil); err == nil {
			t.Errorf("%s: a lattice of %d frames rescored with %d frames of features", e.Key, maxT, maxT+1)
		}
		for s := range re.States {
			for i := range re.States[s].Arcs {
				re.States[s].Arcs[i].W.Acoustic = 0
			}
		}
		s, i := 0, 0
		err = re.AcousticRescore(maxT, func(tf int, tid int32) (float32, error) {
			// the arcs come in state order
			for ; s < len(orig.States); s, i = s+1, 0 {
				for ; i < len(orig.States[s].Arcs); i++ {
					if orig.States[s].Arcs[i].ILabel != 0 {
						if int(times[s]) != tf {
							t.Fatalf("frame %d asked, arc at frame %d", tf, times[s])
						}
						v := -want[[2]int32{int32(s), int32(i)}]
						i++
						return v, nil
					}
				}
			}
			t.Fatal("more arcs rescored than the lattice has")
			return 0, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for s := range re.States {
			for i, a := range re.States[s].Arcs {
				if w := want[[2]int32{int32(s), int32(i)}]; a.ILabel != 0 && a.W.Acoustic != w {
					t.Errorf("%s state %d arc %d: acoustic cost %g, was %g", e.Key, s, i, a.W.Acoustic, w)
				}
			}
		}
	}
}

// MergeEquivalentStates keeps every best path (at every LM weight) and
// merges two equal branches into one.
func TestMergeEquivalentStates(t *testing.T) {
	for _, e := range readAll(t, "testdata/test5_lat_mapped.ark") {
		m := clone(e.Compact)
		if err := m.MergeEquivalentStates(); err != nil {
			t.Fatal(err)
		}
		if len(m.States) > len(e.Compact.States) {
			t.Errorf("%s: %d states after merging, %d before", e.Key, len(m.States), len(e.Compact.States))
		}
		for lmwt := float32(7); lmwt <= 17; lmwt += 5 {
			a, b := clone(e.Compact), clone(m)
			a.Scale(LatticeScale(1, 1/lmwt))
			b.Scale(LatticeScale(1, 1/lmwt))
			pa, _ := a.ShortestPath()
			pb, err := b.ShortestPath()
			if err != nil {
				t.Fatal(err)
			}
			aa, wa, _, _ := pa.LinearSequence()
			ab, wb, _, _ := pb.LinearSequence()
			if !slices.Equal(wa, wb) || !slices.Equal(aa, ab) {
				t.Errorf("%s lmwt %v: words %v vs %v", e.Key, lmwt, wb, wa)
			}
		}
	}
	// start -a-> 1 -c-> 3(final), start -b-> 2 -c-> 4(final): 3 and 4 merge,
	// then 1 and 2 do not (labels differ).
	c := &CompactLattice{}
	for i := 0; i < 5; i++ {
		c.AddState()
	}
	w := CompactWeight{W: Weight{1, 2}, Tids: []int32{7, 8}}
	c.States[0].Arcs = []CompactArc{{Label: 1, W: w, Next: 1}, {Label: 2, W: w, Next: 2}}
	c.States[1].Arcs = []CompactArc{{Label: 3, W: w, Next: 3}}
	c.States[2].Arcs = []CompactArc{{Label: 3, W: w, Next: 4}}
	c.States[3].Final, c.States[4].Final = CompactOne, CompactOne
	if err := c.MergeEquivalentStates(); err != nil {
		t.Fatal(err)
	}
	if len(c.States) != 3 {
		t.Errorf("%d states after merging, want 3 (0, 1=2, 3=4)", len(c.States))
	}
}

// DeterminizePrunedReport gives DeterminizePruned's lattice and says the
// beam was reached.
func TestDeterminizePrunedReport(t *testing.T) {
	for _, e := range readAll(t, "testdata/test5_lat_mapped.ark") {
		a, err := DeterminizePruned(e.Compact.ToLattice(), 8, DefaultDeterminizeOptions())
		if err != nil {
			t.Fatal(err)
		}
		b, reached, err := DeterminizePrunedReport(e.Compact.ToLattice(), 8, DefaultDeterminizeOptions())
		if err != nil || !reached {
			t.Fatalf("%s: reached %v, %v", e.Key, reached, err)
		}
		if len(a.States) != len(b.States) {
			t.Errorf("%s: %d states vs %d", e.Key, len(b.States), len(a.States))
		}
	}
}
