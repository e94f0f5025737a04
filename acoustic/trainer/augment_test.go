package trainer

import (
	"math/rand"
	"slices"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// TestMasked checks that frequency bands hit the same raw bins at every
// splice position, time spans zero whole rows, the originals are untouched,
// and the same seed gives the same masks.
func TestMasked(t *testing.T) {
	const raw, splice, rows = 5, 3, 12
	dim := raw * splice
	u := &am.Utterance{Key: "u", Rows: rows, Feats: make([]float32, rows*dim), Targets: make([]int32, rows)}
	for i := range u.Feats {
		u.Feats[i] = 1
	}
	for _, tc := range []struct {
		name string
		o    MaskOptions
	}{
		{"freq", MaskOptions{FreqMasks: 2, FreqWidth: 2}},
		{"time", MaskOptions{TimeMasks: 2, TimeWidth: 4}},
		{"both", MaskOptions{FreqMasks: 1, FreqWidth: 3, TimeMasks: 1, TimeWidth: 3}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			zeroed := 0
			for seed := int64(0); seed < 20; seed++ {
				a := tc.o.Masked([]*am.Utterance{u}, raw, rand.New(rand.NewSource(seed)))[0]
				b := tc.o.Masked([]*am.Utterance{u}, raw, rand.New(rand.NewSource(seed)))[0]
				for i := range a.Feats {
					if a.Feats[i] != b.Feats[i] {
						t.Fatalf("seed %d: masks differ at %d", seed, i)
					}
					if a.Feats[i] == 0 {
						zeroed++
					}
				}
				for r := 0; r < rows; r++ {
					row := a.Feats[r*dim : (r+1)*dim]
					rowZero := true
					for _, v := range row {
						rowZero = rowZero && v == 0
					}
					for j := 0; j < raw; j++ {
						if rowZero {
							break
						}
						for s := 1; s < splice; s++ {
							if row[j] != row[s*raw+j] {
								t.Fatalf("seed %d row %d: bin %d masked at one splice position only", seed, r, j)
							}
						}
					}
				}
			}
			if zeroed == 0 {
				t.Errorf("no value masked in 20 draws")
			}
			for _, v := range u.Feats {
				if v != 1 {
					t.Fatal("the original utterance was modified")
				}
			}
		})
	}
	if got := (MaskOptions{}).Masked([]*am.Utterance{u}, raw, nil); got[0] != u {
		t.Errorf("masking off should return the utterances as they are")
	}
}

// TestMaskedUnspliced: raw frames with a splice context get the same masks
// as the features spliced beforehand, and the originals keep their context.
func TestMaskedUnspliced(t *testing.T) {
	const raw, left, right = 3, 2, 1
	rawU, splU := unspliced(t, rand.New(rand.NewSource(3)), []int{9}, raw, left, right, 4)
	mask := MaskOptions{FreqMasks: 2, FreqWidth: 2, TimeMasks: 2, TimeWidth: 3}
	m1 := mask.Masked(rawU, raw, rand.New(rand.NewSource(4)))[0]
	m2 := mask.Masked(splU, raw, rand.New(rand.NewSource(4)))[0]
	if m1.Context != [2]int{} || !slices.Equal(m1.Feats, m2.Feats) {
		t.Fatal("masked raw frames differ from masked spliced ones")
	}
	if rawU[0].Context != [2]int{left, right} || len(rawU[0].Feats) != 9*raw {
		t.Fatal("Masked changed the original utterance")
	}
}
