package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// nbest-to-linear of lattice-1best is lattice-best-path's output, which is
// Kaldi's (test5_1best.tra/.ali, lattice-best-path --acoustic-scale=0.083333).
func TestLattice1bestNbestToLinear(t *testing.T) {
	td := filepath.Join("..", "..", "decoder", "lattice", "testdata")
	dir := t.TempDir()
	best := filepath.Join(dir, "1best.ark")
	if _, errs, code := runScoringCmd(t, "", "lattice-1best", "--acoustic-scale=0.083333", "ark:"+filepath.Join(td, "test5_lat_mapped.ark"), "ark:"+best); code != 0 {
		t.Fatalf("lattice-1best: exit %d: %s", code, errs)
	}
	tra, ali, lm, ac := filepath.Join(dir, "tra"), filepath.Join(dir, "ali"), filepath.Join(dir, "lm"), filepath.Join(dir, "ac")
	if _, errs, code := runScoringCmd(t, "", "nbest-to-linear", "ark:"+best, "ark,t:"+ali, "ark,t:"+tra, "ark,t:"+lm, "ark,t:"+ac); code != 0 {
		t.Fatalf("nbest-to-linear: exit %d: %s", code, errs)
	}
	for got, want := range map[string]string{tra: "test5_1best.tra", ali: "test5_1best.ali"} {
		g, _ := os.ReadFile(got)
		w, _ := os.ReadFile(filepath.Join(td, want))
		if string(g) != string(w) {
			t.Errorf("%s differs from lattice-best-path's (Kaldi's)", want)
		}
	}
	// The n-best list: keys utt-1 … utt-n, costs non-decreasing, the first
	// being the 1-best.
	nb := filepath.Join(dir, "nbest.ark")
	if _, errs, code := runScoringCmd(t, "", "lattice-to-nbest", "--acoustic-scale=0.083333", "--n=3", "ark:"+filepath.Join(td, "test5_lat_mapped.ark"), "ark:"+nb); code != 0 {
		t.Fatalf("lattice-to-nbest: exit %d: %s", code, errs)
	}
	ntra := filepath.Join(dir, "ntra")
	if _, errs, code := runScoringCmd(t, "", "nbest-to-linear", "ark:"+nb, "ark:/dev/null", "ark,t:"+ntra); code != 0 {
		t.Fatalf("nbest-to-linear (n-best): exit %d: %s", code, errs)
	}
	b, _ := os.ReadFile(ntra)
	w, _ := os.ReadFile(filepath.Join(td, "test5_1best.tra"))
	firsts := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		key, rest, _ := strings.Cut(line, " ")
		if utt, ok := strings.CutSuffix(key, "-1"); ok {
			firsts[utt] = rest
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(string(w)), "\n") {
		key, rest, _ := strings.Cut(line, " ")
		if firsts[key] != rest {
			t.Errorf("%s-1 is %q, the 1-best %q", key, firsts[key], rest)
		}
	}
	// An empty archive: nothing done, exit 1 as Kaldi.
	for _, cmd := range []string{"lattice-1best", "lattice-to-nbest"} {
		if _, _, code := runScoringCmd(t, "", cmd, "ark:-", "ark:/dev/null"); code != 1 {
			t.Errorf("%s on empty input: exit %d, want 1", cmd, code)
		}
	}
}

// nbest-to-ctm on a hand-written word-aligned lattice: Kaldi's line format,
// --frame-shift and --precision, silence only with --print-silence, and a
// lattice that is not linear is skipped with a warning naming its key.
func TestNbestToCtm(t *testing.T) {
	lats := "utt1\n0\t1\t0\t0,0,1_1_1\n1\t2\t7\t1,2,3_4\n2\t3\t8\t0,1,5_6_6_6\n3\t0,0,\n\n" +
		"utt2\n0\t1\t7\t0,0,3\n0\t1\t8\t0,0,3\n1\t0,0,\n\n"
	out, errs, code := runScoringCmd(t, lats, "nbest-to-ctm", "ark:-", "-")
	if code != 0 || out != "utt1 1 0.03 0.02 7\nutt1 1 0.05 0.04 8\n" || !strings.Contains(errs, "utt2") {
		t.Errorf("exit %d out %q stderr %q", code, out, errs)
	}
	out, _, _ = runScoringCmd(t, lats, "nbest-to-ctm", "--print-silence=true", "--frame-shift=0.03", "--precision=3", "ark:-", "-")
	if out != "utt1 1 0.000 0.090 0\nutt1 1 0.090 0.060 7\nutt1 1 0.150 0.120 8\n" {
		t.Errorf("--print-silence: %q", out)
	}
}
