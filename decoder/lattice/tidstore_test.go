package lattice

import (
	"math/rand"
	"slices"
	"testing"
)

// The string store against plain slices: random strings built by appending,
// suffixes and prefixes, every operation checked on every pair (seeded).
func TestTidStoreMatchesSlices(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	st := newTidStore()
	// Filler nodes first, so that the strings' nodes lie in a later chunk
	// than their root and chains cross chunk boundaries.
	for range 2*tidChunk - 50 {
		st.append(emptyString, 9)
	}
	ids := []tidString{emptyString}
	strs := [][]int32{nil}
	for len(ids) < 300 {
		i := rng.Intn(len(ids))
		switch rng.Intn(4) {
		case 0: // a suffix
			k := rng.Intn(len(strs[i]) + 1)
			ids = append(ids, st.suffix(ids[i], k))
			strs = append(strs, strs[i][k:])
		default: // few distinct tids, so that ties and shared prefixes are common
			tid := int32(1 + rng.Intn(3))
			ids = append(ids, st.append(ids[i], tid))
			strs = append(strs, append(slices.Clip(strs[i]), tid))
		}
	}
	for i := range ids {
		if got := st.appendTo(nil, ids[i]); !slices.Equal(got, strs[i]) && len(got)+len(strs[i]) > 0 {
			t.Fatalf("string %d: %v, want %v", i, got, strs[i])
		}
		if st.length(ids[i]) != len(strs[i]) {
			t.Fatalf("string %d: length %d, want %d", i, st.length(ids[i]), len(strs[i]))
		}
		for j := range ids {
			want := CompareCompact(CompactWeight{Tids: strs[i]}, CompactWeight{Tids: strs[j]})
			if got := st.compare(ids[i], ids[j]); got != want {
				t.Fatalf("compare %v, %v: %d, want %d", strs[i], strs[j], got, want)
			}
			n := 0
			for n < len(strs[i]) && n < len(strs[j]) && strs[i][n] == strs[j][n] {
				n++
			}
			if got := st.commonPrefix(strs[i], ids[j]); got != n {
				t.Fatalf("common prefix of %v, %v: %d, want %d", strs[i], strs[j], got, n)
			}
		}
	}
}
