package lattice

import (
	"bytes"
	"slices"
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
