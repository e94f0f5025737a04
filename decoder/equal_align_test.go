package decoder

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

// glibc's rand() after srand(1) starts 1804289383, 846930886, 1681692777.
func TestGlibcRand(t *testing.T) {
	g := newGlibcRand(1)
	for _, want := range []int32{1804289383, 846930886, 1681692777, 1714636915, 1957747793} {
		if got := g.next(); got != want {
			t.Fatalf("rand() = %d, want %d", got, want)
		}
	}
}

// align-equal-compiled on Kaldi's graphs of kaldi-mini's five test
// utterances gives Kaldi's alignments.
func TestEqualAlignKaldiMini(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	graphs := readTable(t, "ark:testdata/test5_graphs.fsts", FstCodec)
	feats := readTable(t, "ark:"+filepath.Join(dir, "golden/test5_feats.ark"), kaldiio.MatrixCodec)
	want := readTable(t, "ark:"+filepath.Join(dir, "golden/test5_align_equal.ali"), kaldiio.IntVectorCodec)
	if len(want) != 5 {
		t.Fatalf("%d golden alignments", len(want))
	}
	for key, w := range want {
		g := graphs[key]
		ali, err := EqualAlign(&g, feats[key].Rows, StringHash(key))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if !slices.Equal(ali, w) {
			t.Errorf("%s: equal alignment differs from Kaldi's\n got %v\nwant %v", key, ali, []int32(w))
		}
	}
}
