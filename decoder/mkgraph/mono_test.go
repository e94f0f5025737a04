package mkgraph

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder/hmm"
)

// TestMonophoneKaldiMini: the tree from our lang directory is
// byte-identical to kaldi-mini's (gmm-init-mono's) tree, and the
// transition model's tuples equal final.mdl's.
func TestMonophoneKaldiMini(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	d, err := ReadDictDir(filepath.Join(dir, "data/local/dict"))
	if err != nil {
		t.Fatal(err)
	}
	lang, err := PrepareLang(d, "<SIL>", positionIndependent())
	if err != nil {
		t.Fatal(err)
	}
	tree, err := MonophoneTree(&lang.Topo, lang.PhoneSets())
	if err != nil {
		t.Fatal(err)
	}
	tm, err := MonophoneTransitionModel(lang.Topo, tree)
	if err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	if err := WriteMonophoneModel(filepath.Join(out, "tree"), filepath.Join(out, "final.mdl"), tree, tm, true); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(filepath.Join(out, "tree"))
	want, _ := os.ReadFile(filepath.Join(dir, "exp/mono/tree"))
	if !bytes.Equal(got, want) {
		t.Errorf("tree differs from gmm-init-mono's (%d vs %d bytes)", len(got), len(want))
	}
	kaldiTM, err := hmm.ReadTransitionModel(filepath.Join(dir, "exp/mono/final.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	back, err := hmm.ReadTransitionModel(filepath.Join(out, "final.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Tuples, kaldiTM.Tuples) {
		t.Errorf("transition-state tuples differ from final.mdl's")
	}
	if back.NumTransitionIDs() != kaldiTM.NumTransitionIDs() || back.NumPdfs() != kaldiTM.NumPdfs() {
		t.Errorf("%d tids %d pdfs, final.mdl %d %d", back.NumTransitionIDs(), back.NumPdfs(), kaldiTM.NumTransitionIDs(), kaldiTM.NumPdfs())
	}
}
