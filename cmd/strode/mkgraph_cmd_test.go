package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// prepare-lang | arpa2fst | mkgraph on kaldi-mini's dictionary and LM with
// its model, then latgen-faster-mapped | lattice-best-path: Kaldi's 1-best.
func TestGraphCommands(t *testing.T) {
	k := shareddata.Dir(t, "kaldi-mini")
	dir := t.TempDir()
	lang, graphDir := filepath.Join(dir, "lang"), filepath.Join(dir, "graph")
	run := func(args ...string) {
		t.Helper()
		if _, errs, code := runScoringCmd(t, "", args...); code != 0 {
			t.Fatalf("%v: exit %d\n%s", args, code, errs)
		}
	}
	run("prepare-lang", "--position-dependent-phones=false", "--mono-dir="+filepath.Join(dir, "mono0"), filepath.Join(k, "data/local/dict"), "<SIL>", filepath.Join(dir, "tmp"), lang)
	for _, f := range []string{"L.fst", "L_disambig.fst", "phones.txt", "words.txt", "topo"} {
		if _, err := os.Stat(filepath.Join(lang, f)); err != nil {
			t.Fatal(err)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "mono0", "tree")); len(b) == 0 {
		t.Fatal("--mono-dir wrote no tree")
	}
	run("arpa2fst", "--disambig-symbol=#0", "--read-symbol-table="+filepath.Join(lang, "words.txt"), filepath.Join(k, "data/local/lm.arpa"), filepath.Join(lang, "G.fst"))
	run("mkgraph", lang, filepath.Join(k, "exp/mono"), graphDir)
	lat, tra := filepath.Join(dir, "lat.ark"), filepath.Join(dir, "tra")
	run("latgen-faster-mapped", "--max-active=7000", "--beam=13.0", "--lattice-beam=6.0", "--acoustic-scale=0.083333",
		"--allow-partial=true", filepath.Join(k, "exp/mono/final.mdl"), filepath.Join(graphDir, "HCLG.fst"),
		"ark:"+filepath.Join(k, "golden/test5_loglikes.ark"), "ark:"+lat)
	run("lattice-best-path", "--acoustic-scale=0.083333", "ark:"+lat, "ark,t:"+tra)
	got, _ := os.ReadFile(tra)
	want, _ := os.ReadFile(filepath.Join(k, "golden/test5_1best.tra"))
	if string(got) != string(want) {
		t.Errorf("1-best through our HCLG:\n%s\nKaldi:\n%s", got, want)
	}
	// One-digit and digit-loop graphs from the built-in dictionary.
	run("prepare-lang", "--position-dependent-phones=false", "builtin:digits", "<SIL>", filepath.Join(dir, "tmp"), filepath.Join(dir, "lang_digits"))
	run("mkgraph", "--grammar=word-loop", filepath.Join(dir, "lang_digits"), filepath.Join(k, "exp/mono"), filepath.Join(dir, "graph_loop"))
	run("mkgraph", "--grammar=one-word", filepath.Join(dir, "lang_digits"), filepath.Join(k, "exp/mono"), filepath.Join(dir, "graph_one"))
	run("decode-faster-mapped", "--beam=13.0", "--acoustic-scale=0.083333", filepath.Join(k, "exp/mono/final.mdl"),
		filepath.Join(dir, "graph_loop", "HCLG.fst"), "ark:"+filepath.Join(k, "golden/test5_loglikes.ark"), "ark,t:"+tra)
	got, _ = os.ReadFile(tra)
	if string(got) != string(want) {
		t.Errorf("1-best through the digit-loop graph:\n%s\nKaldi:\n%s", got, want)
	}
}
