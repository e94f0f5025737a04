package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// Kaldi's exit codes and messages: no lattice rescored exits 1; a bad
// G.carpa or missing --bos-symbol fails (255) naming what is wrong; a
// G.carpa built from kaldi-mini's unigram LM rescores its lattices.
func TestLMRescoreCommands(t *testing.T) {
	k := shareddata.Dir(t, "kaldi-mini")
	dir := t.TempDir()
	arpa := filepath.Join(k, "data/local/lm.arpa")
	words := filepath.Join(k, "data/lang/words.txt")
	carpa := filepath.Join(dir, "G.carpa")
	_, errs, code := runScoringCmd(t, "", "arpa-to-const-arpa", arpa, carpa)
	if code != 255 || !strings.Contains(errs, "Please set --bos-symbol and --eos-symbol.") {
		t.Errorf("no --bos-symbol: exit %d %s", code, errs)
	}
	arpaText, err := os.ReadFile(arpa)
	if err != nil {
		t.Fatal(err)
	}
	ints, errs, code := runScoringCmd(t, string(arpaText), "map-arpa-lm", words)
	if code != 0 {
		t.Fatalf("map-arpa-lm: exit %d %s", code, errs)
	}
	intArpa := filepath.Join(dir, "lm.int")
	os.WriteFile(intArpa, []byte(ints), 0o644)
	if _, errs, code = runScoringCmd(t, "", "arpa-to-const-arpa", "--bos-symbol=14", "--eos-symbol=15", "--unk-symbol=1", intArpa, carpa); code != 0 {
		t.Fatalf("arpa-to-const-arpa: exit %d %s", code, errs)
	}
	lats := "ark:gunzip -c " + filepath.Join(k, "exp/mono/decode_test/lat.1.gz") + " |"
	g := filepath.Join(dir, "G.proj.fst")
	if _, errs, code = runScoringCmd(t, "", "fstproject", "--project_output=true", filepath.Join(k, "data/lang_test/G.fst"), g); code != 0 {
		t.Fatalf("fstproject: exit %d %s", code, errs)
	}
	out := filepath.Join(dir, "out.ark")
	// G.fst's costs off, the same LM's ConstArpa on: the 1-best stays Kaldi's.
	_, errs, code = runScoringCmd(t, "", "lattice-lmrescore", "--lm-scale=-1.0", lats, g, "ark:"+out+".sub")
	if code != 0 || !strings.Contains(errs, "Done 30 lattices, failed for 0") {
		t.Fatalf("lattice-lmrescore: exit %d %s", code, errs)
	}
	_, errs, code = runScoringCmd(t, "", "lattice-lmrescore-const-arpa", "ark:"+out+".sub", carpa, "ark:"+out)
	if code != 0 || !strings.Contains(errs, "Done 30 lattices, failed for 0") {
		t.Fatalf("lattice-lmrescore-const-arpa: exit %d %s", code, errs)
	}
	tra, errs, code := runScoringCmd(t, "", "lattice-best-path", "--acoustic-scale=0.083333", "ark:"+out, "ark,t:-")
	kaldi, _ := os.ReadFile(filepath.Join(k, "golden/test5_1best.tra"))
	if code != 0 || !strings.HasPrefix(tra, string(kaldi)) {
		t.Errorf("1-best after rescoring with the same LM: exit %d\n%s\nKaldi's first five:\n%s\n%s", code, tra, kaldi, errs)
	}
	// Corrupt G.carpa: 255 naming the file.
	bad := filepath.Join(dir, "bad.carpa")
	os.WriteFile(bad, []byte("\x00B<ConstArpaLm> junk"), 0o644)
	_, errs, code = runScoringCmd(t, "", "lattice-lmrescore-const-arpa", "ark:"+out+".sub", bad, "ark:/dev/null")
	if code != 255 || !strings.Contains(errs, "bad.carpa") {
		t.Errorf("bad G.carpa: exit %d %s", code, errs)
	}
	// No lattices at all: nothing done, exit 1.
	empty := filepath.Join(dir, "empty.ark")
	os.WriteFile(empty, nil, 0o644)
	_, errs, code = runScoringCmd(t, "", "lattice-lmrescore-const-arpa", "ark:"+empty, carpa, "ark:/dev/null")
	if code != 1 || !strings.Contains(errs, "Done 0 lattices, failed for 0") {
		t.Errorf("no lattices: exit %d %s", code, errs)
	}
}
