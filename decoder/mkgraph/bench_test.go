package mkgraph

import (
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"
)

// buildSynthetic builds lang, G and the monophone model for a synthetic
// nWords-word bigram with perWord successors per word.
func buildSynthetic(tb testing.TB, nWords, perWord int) (*Lang, *HCLGInputs) {
	tb.Helper()
	lang, in, err := SyntheticBigram(nWords, perWord, 1)
	if err != nil {
		tb.Fatal(err)
	}
	return lang, in
}

// TestSyntheticBigramGraph builds a small synthetic bigram graph (long
// tests also the 5,000-word one of the acceptance list and report its
// time and size).
func TestSyntheticBigramGraph(t *testing.T) {
	n, per := 300, 10
	if !testing.Short() {
		n = 5000
	}
	lang, in := buildSynthetic(t, n, per)
	start := time.Now()
	h, err := BuildHCLG(in.TM, in.Tree, lang.LDisambig, in.G, lang.PhoneDisambig, DefaultMkGraphOptions())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d-word bigram (%d G states, %d G arcs): HCLG %d states, %d arcs in %v",
		n, in.G.NumStates(), in.G.NumArcs(), h.Fst.NumStates(), h.Fst.NumArcs(), time.Since(start).Round(time.Millisecond))
	for s := range h.Fst.States {
		for _, a := range h.Fst.States[s].Arcs {
			if a.ILabel > int32(in.TM.NumTransitionIDs()) {
				t.Fatalf("disambiguation symbol %d left on state %d", a.ILabel, s)
			}
		}
	}
	// No state has two arcs with the same non-epsilon input: removing the
	// back-off disambiguation symbols leaves epsilons (as in Kaldi's graphs
	// of back-off LMs, which OpenFst then calls non-deterministic too).
	for s := range h.Fst.States {
		seen := map[int32]bool{}
		for _, a := range h.Fst.States[s].Arcs {
			if a.ILabel != 0 && seen[a.ILabel] {
				t.Fatalf("state %d has two arcs on input %d", s, a.ILabel)
			}
			seen[a.ILabel] = true
		}
	}
	// OpenFst reads the graph.
	fstinfo, err := exec.LookPath("fstinfo")
	if err != nil {
		t.Skip("fstinfo not installed (apt-get install libfst-tools)")
	}
	p := filepath.Join(t.TempDir(), "HCLG.fst")
	if err := writeConstFstFile(p, h.Fst); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(fstinfo, p).CombinedOutput()
	if err != nil {
		t.Fatalf("fstinfo: %v: %s", err, out)
	}
	if !regexp.MustCompile(`(?m)^# of states\s+` + strconv.Itoa(h.Fst.NumStates()) + `$`).Match(out) {
		t.Errorf("fstinfo reads a different graph:\n%s", out)
	}
}

func BenchmarkMkGraph5000(b *testing.B) {
	lang, in := buildSynthetic(b, 5000, 10)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := BuildHCLG(in.TM, in.Tree, lang.LDisambig, in.G, lang.PhoneDisambig, DefaultMkGraphOptions()); err != nil {
			b.Fatal(err)
		}
	}
}
