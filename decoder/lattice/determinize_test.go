package lattice

import (
	"bytes"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// Expanding Kaldi's determinized lattices and determinizing them again must
// give the same lattices (up to state numbering) and the same best paths at
// every LM weight.
func TestDeterminizeGolden(t *testing.T) {
	for _, e := range readAll(t, "testdata/test5_lat_mapped.ark") {
		orig := e.Compact
		l := orig.ToLattice()
		det, err := DeterminizePruned(l, 1e9, DefaultDeterminizeOptions())
		if err != nil {
			t.Fatal(err)
		}
		if len(det.States) != len(orig.States) {
			t.Errorf("%s: %d states, Kaldi's lattice has %d", e.Key, len(det.States), len(orig.States))
		}
		for lmwt := float32(1); lmwt <= 17; lmwt++ {
			a, b := clone(orig), clone(det)
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
}

func clone(c *CompactLattice) *CompactLattice {
	var b bytes.Buffer
	c.WriteBinary(&b)
	out, _, err := ReadBinary(bytes.NewReader(b.Bytes()))
	if err != nil {
		panic(err)
	}
	return out
}

// sausage is a lattice of n word positions with k alternatives each, word
// j at cost j (graph part) and one transition-id per arc.
func sausage(n, k int) *Lattice {
	l := &Lattice{}
	l.Start = l.AddState()
	for i := 0; i < n; i++ {
		next := l.AddState()
		for j := 0; j < k; j++ {
			l.States[next-1].Arcs = append(l.States[next-1].Arcs,
				Arc{ILabel: int32(1 + i*k + j), OLabel: int32(1 + j), W: Weight{Graph: float32(j)}, Next: next})
		}
	}
	l.States[len(l.States)-1].Final = One
	return l
}

// A determinization that passes --max-mem stops short of its beam, says
// so as Kaldi does, and is retried at narrower beams: the lattice it
// returns holds the best path and fewer alternatives, where the unbounded
// one holds them all.
func TestDeterminizeMaxMem(t *testing.T) {
	full, err := DeterminizePruned(sausage(20, 5), 1e9, DefaultDeterminizeOptions())
	if err != nil {
		t.Fatal(err)
	}
	count := func(c *CompactLattice) (arcs int) {
		for _, s := range c.States {
			arcs += len(s.Arcs)
		}
		return arcs
	}
	if n := count(full); n != 100 {
		t.Fatalf("unbounded: %d arcs, want 20 positions × 5 words", n)
	}
	var warnings []string
	o := DefaultDeterminizeOptions()
	o.MaxMem, o.Warn = 3000, func(s string) { warnings = append(warnings, s) }
	small, err := DeterminizePruned(sausage(20, 5), 8, o)
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(warnings, "\n")
	if !strings.Contains(text, "Did not reach requested beam in determinize-lattice: size exceeds maximum 3000 bytes") ||
		!strings.Contains(text, "retrying determinization with that beam") {
		t.Errorf("warnings:\n%s", text)
	}
	if n := count(small); n == 0 || n >= 100 {
		t.Errorf("bounded: %d arcs, want some but fewer than 100", n)
	}
	bp, err := small.ShortestPath()
	if err != nil {
		t.Fatal(err)
	}
	_, words, _, _ := bp.LinearSequence()
	if len(words) != 20 || slices.ContainsFunc(words, func(w int32) bool { return w != 1 }) {
		t.Errorf("bounded lattice's best path %v, want word 1 at all 20 positions", words)
	}
}

// branchy is n words, each after k alternative chains of m word-less arcs
// (transition-ids only, costs 0..k-1) that meet again: every closure builds
// k·m strings of which one survives, and normalization moves that one onto
// the word's arc, so the string store fills with strings nothing refers to.
func branchy(n, k, m int) *Lattice {
	l := &Lattice{}
	l.Start = l.AddState()
	tid := int32(1)
	for i := 0; i < n; i++ {
		from, meet := int32(len(l.States)-1), l.AddState()
		for j := 0; j < k; j++ {
			prev := from
			for x := 0; x < m; x++ {
				next := meet
				if x < m-1 {
					next = l.AddState()
				}
				l.States[prev].Arcs = append(l.States[prev].Arcs, Arc{ILabel: tid, W: Weight{Acoustic: float32(j)}, Next: next})
				tid++
				prev = next
			}
		}
		word := l.AddState()
		l.States[meet].Arcs = append(l.States[meet].Arcs, Arc{ILabel: tid, OLabel: int32(1 + i%3), Next: word})
		tid++
	}
	l.States[len(l.States)-1].Final = One
	return l
}

// Passing --max-mem first rebuilds the string store, as Kaldi's
// RebuildRepository does: where the dead strings were what passed the
// bound, the determinization goes on to its beam and gives the unbounded
// lattice, with no warning.
func TestDeterminizeRebuildsStrings(t *testing.T) {
	full, err := DeterminizePruned(branchy(40, 4, 6), 1e9, DefaultDeterminizeOptions())
	if err != nil {
		t.Fatal(err)
	}
	var warnings []string
	o := DefaultDeterminizeOptions()
	o.MaxMem, o.Warn = 8000, func(s string) { warnings = append(warnings, s) }
	got, err := DeterminizePruned(branchy(40, 4, 6), 1e9, o)
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) > 0 {
		t.Errorf("warnings:\n%s", strings.Join(warnings, "\n"))
	}
	if !reflect.DeepEqual(got, full) {
		t.Errorf("bounded lattice differs from the unbounded one:\n%+v\n%+v", got, full)
	}
	// The same bound without rebuilding would have stopped: 40 words × 4
	// chains × 6 transition-ids of nodes alone pass it.
	if n := int64(40*4*6) * nodeBytes; n <= o.MaxMem {
		t.Errorf("the strings (%d bytes) do not pass --max-mem %d: the test proves nothing", n, o.MaxMem)
	}
}
