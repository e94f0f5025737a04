package mkgraph

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
)

// TestHCLGKaldiMini builds HCLG from kaldi-mini's data/lang L_disambig.fst,
// its G.fst, final.mdl and tree, and checks that the best path of every
// golden utterance through our graph gives Kaldi's 1-best words, with the
// same cost as through Kaldi's HCLG.
func TestHCLGKaldiMini(t *testing.T) {
	dir := sharedDir(t, "kaldi-mini")
	tm, err := hmm.ReadTransitionModel(filepath.Join(dir, "exp/mono/final.mdl"))
	if err != nil {
		t.Fatal(err)
	}
	tree, err := tree.Read(filepath.Join(dir, "exp/mono/tree"))
	if err != nil {
		t.Fatal(err)
	}
	t.Run("KaldiLangG", func(t *testing.T) {
		l := mustReadFst(t, filepath.Join(dir, "data/lang/L_disambig.fst"))
		g := mustReadFst(t, filepath.Join(dir, "data/lang_test/G.fst"))
		disambig := mustInts(t, filepath.Join(dir, "data/lang/phones/disambig.int"))
		h, err := BuildHCLG(tm, tree, l, g, disambig, DefaultMkGraphOptions())
		if err != nil {
			t.Fatal(err)
		}
		checkHCLGKaldiMini(t, dir, tm, h)
	})
	// The whole chain of ours: lang directory from the dictionary, G from
	// the ARPA file, then HCLG.
	t.Run("OurLangG", func(t *testing.T) {
		d, err := ReadDictDir(filepath.Join(dir, "data/local/dict"))
		if err != nil {
			t.Fatal(err)
		}
		lang, err := PrepareLang(d, "<SIL>", positionIndependent())
		if err != nil {
			t.Fatal(err)
		}
		f, err := os.Open(filepath.Join(dir, "data/local/lm.arpa"))
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		opt := DefaultArpaOptions()
		opt.DisambigSymbol = "#0"
		g, _, err := ArpaToFst(f, "lm.arpa", lang.Words, opt, nil)
		if err != nil {
			t.Fatal(err)
		}
		h, err := BuildHCLG(tm, tree, lang.LDisambig, g, lang.PhoneDisambig, DefaultMkGraphOptions())
		if err != nil {
			t.Fatal(err)
		}
		checkHCLGKaldiMini(t, dir, tm, h)
	})
}

func checkHCLGKaldiMini(t *testing.T, dir string, tm *hmm.TransitionModel, h *HCLG) {
	kaldi := mustReadFst(t, filepath.Join(dir, "exp/mono/graph/HCLG.fst"))
	t.Logf("our HCLG: %d states %d arcs; Kaldi's: %d states %d arcs", h.Fst.NumStates(), h.Fst.NumArcs(), kaldi.NumStates(), kaldi.NumArcs())
	for s := range h.Fst.States {
		for _, a := range h.Fst.States[s].Arcs {
			if a.ILabel > int32(tm.NumTransitionIDs()) {
				t.Fatalf("disambiguation symbol %d left on state %d", a.ILabel, s)
			}
		}
	}
	tid2pdf := tm.TransitionIDToPdfArray()
	want := readIntArchive(t, filepath.Join(dir, "golden/test5_1best.tra"))
	const acousticScale = 0.083333
	for _, u := range readLoglikes(t, filepath.Join(dir, "golden/test5_loglikes.ark")) {
		ours, oc := viterbi(h.Fst, tid2pdf, u.m, acousticScale)
		theirs, kc := viterbi(kaldi, tid2pdf, u.m, acousticScale)
		t.Logf("%s: ours %v (cost %.4f), Kaldi's graph %v (cost %.4f), Kaldi 1-best %v", u.key, ours, oc, theirs, kc, want[u.key])
		if !slices.Equal(ours, want[u.key]) {
			t.Errorf("%s: our graph's best path %v, Kaldi's 1-best %v", u.key, ours, want[u.key])
		}
		if !slices.Equal(theirs, want[u.key]) {
			t.Errorf("%s: Kaldi graph's best path %v, Kaldi's 1-best %v", u.key, theirs, want[u.key])
		}
		if d := oc - kc; d > 0.01 || d < -0.01 {
			t.Errorf("%s: best-path cost %.4f, through Kaldi's graph %.4f", u.key, oc, kc)
		}
	}
	// With Kaldi's AddSelfLoops the whole graph is Kaldi's, up to state
	// numbering and float rounding.
	if iso, err := exec.LookPath("fstisomorphic"); err == nil {
		d := t.TempDir()
		p := filepath.Join(d, "HCLG.fst")
		if err := fst.WriteFile(p, h.Fst); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(iso, "--delta=0.002", p, filepath.Join(dir, "exp/mono/graph/HCLG.fst")).CombinedOutput(); err != nil {
			t.Errorf("fstisomorphic: our HCLG and Kaldi's differ (%v) %s", err, out)
		}
	}
	// OpenFst reads our graph and finds it input-deterministic, as Kaldi's.
	if fstinfo, err := exec.LookPath("fstinfo"); err == nil {
		p := filepath.Join(t.TempDir(), "HCLG.fst")
		if err := fst.WriteFile(p, h.Fst); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(fstinfo, p).CombinedOutput()
		if err != nil {
			t.Fatalf("fstinfo: %v: %s", err, out)
		}
		if !regexp.MustCompile(`(?m)^input deterministic\s+y$`).Match(out) {
			t.Errorf("fstinfo does not find our HCLG input-deterministic:\n%s", out)
		}
	}
}
