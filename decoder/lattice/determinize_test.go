package lattice

import (
	"bytes"
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
