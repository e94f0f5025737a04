package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestLatticeBestPathCommand(t *testing.T) {
	td := filepath.Join("..", "..", "decoder", "lattice", "testdata")
	dir := t.TempDir()
	tra, ali := filepath.Join(dir, "tra"), filepath.Join(dir, "ali")
	_, errs, code := runScoringCmd(t, "", "lattice-best-path", "--acoustic-scale=0.083333",
		"ark:"+filepath.Join(td, "test5_lat_mapped.ark"), "ark,t:"+tra, "ark,t:"+ali)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for got, want := range map[string]string{tra: "test5_1best.tra", ali: "test5_1best.ali"} {
		g, _ := os.ReadFile(got)
		w, _ := os.ReadFile(filepath.Join(td, want))
		if string(g) != string(w) {
			t.Errorf("%s differs from Kaldi's", want)
		}
	}
	// An empty archive: nothing done, exit 1 as Kaldi.
	if _, _, code := runScoringCmd(t, "", "lattice-best-path", "ark:-"); code != 1 {
		t.Errorf("empty input: exit %d, want 1", code)
	}
}
