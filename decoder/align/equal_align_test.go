package align

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/kaldiio"
)

// align-equal-compiled on Kaldi's graphs of kaldi-mini's five test
// utterances gives Kaldi's alignments.
func TestEqualAlignKaldiMini(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	graphs := readTable(t, "ark:../fst/testdata/test5_graphs.fsts", fst.Codec)
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

// Equal alignment through our own compiled graphs gives whole phones and
// exactly one transition-id per frame.
func TestEqualAlignOurGraphs(t *testing.T) {
	k := loadKaldiMini(t)
	keys, tra := k.transcripts(t, "golden/test5.text")
	loglikes := readTable(t, "ark:"+filepath.Join(k.dir, "golden/test5_loglikes.ark"), kaldiio.MatrixCodec)
	comp, err := NewTrainingGraphCompiler(k.tm, k.tree, k.lex, k.disambig, DefaultTrainingGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	for i, key := range keys {
		g, err := comp.CompileText(tra[i])
		if err != nil {
			t.Fatal(err)
		}
		rows := loglikes[key].Rows
		ali, err := EqualAlign(g, rows, StringHash(key))
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if len(ali) != rows {
			t.Errorf("%s: %d transition-ids for %d frames", key, len(ali), rows)
		}
		if _, ok, err := AliToPhones(k.tm, ali, false); err != nil || !ok {
			t.Errorf("%s: equal alignment does not split into phones (%v)", key, err)
		}
	}
	// Too few frames: an error, not a panic.
	g, _ := comp.CompileText(tra[0])
	if _, err := EqualAlign(g, 3, 1); err == nil {
		t.Error("3 frames for a 6-word utterance aligned")
	}
}
