package search

import (
	"bytes"
	"testing"
)

// The packed state → token table clears itself when its stamp runs out (on
// graphs with many states the stamp has few bits): with a stamp that wraps
// every two frames the lattices are the same as with the full range.
func TestFrontierTableWrapKeepsLattices(t *testing.T) {
	s := loadMini(t)
	ref := NewLatticeDecoder(s.g, DefaultOptions())
	wrap := NewLatticeDecoder(s.g, DefaultOptions())
	wrap.stateTok.maxStamp = 2
	for _, u := range s.utts[:2] {
		var out [2]bytes.Buffer
		for i, d := range []*LatticeDecoder{ref, wrap} {
			res, err := d.DecodeUtterance(s.decodable(t, u, 0.1), 0.1, true, nil)
			if err != nil {
				t.Fatal(err)
			}
			res.Compact.WriteBinary(&out[i])
		}
		if !bytes.Equal(out[0].Bytes(), out[1].Bytes()) {
			t.Errorf("%s: lattices differ when the frontier table's stamp wraps", u.key)
		}
	}
}

func TestFrontierTableBits(t *testing.T) {
	for _, c := range []struct {
		states            int
		tokBits, maxStamp uint32
	}{
		{1, 1, 1<<31 - 1},
		{102945, 17, 1<<15 - 1},
		{1 << 20, 21, 1<<11 - 1},
		{1<<31 - 1, 31, 1}, // the largest int32 state count: cleared every frame
	} {
		b, m := frontierBits(c.states)
		if b != c.tokBits || m != c.maxStamp || uint64(c.states-1) >= 1<<b {
			t.Errorf("%d states: tokBits %d maxStamp %d, want %d, %d", c.states, b, m, c.tokBits, c.maxStamp)
		}
	}
}
