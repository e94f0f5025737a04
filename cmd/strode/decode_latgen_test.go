package main

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// latgen-faster-mapped | lattice-best-path on kaldi-mini gives Kaldi's 1-best.
func TestLatgenCommand(t *testing.T) {
	k := shareddata.Dir(t, "kaldi-mini")
	dir := t.TempDir()
	lat, tra := filepath.Join(dir, "lat.ark"), filepath.Join(dir, "tra")
	_, errs, code := runScoringCmd(t, "", "latgen-faster-mapped", "--max-active=7000", "--beam=13.0", "--lattice-beam=6.0",
		"--acoustic-scale=0.083333", "--allow-partial=true", filepath.Join(k, "exp/mono/final.mdl"),
		filepath.Join(k, "exp/mono/graph/HCLG.fst"), "ark:"+filepath.Join(k, "golden/test5_loglikes.ark"), "ark:"+lat)
	if code != 0 {
		t.Fatalf("latgen: exit %d\n%s", code, errs)
	}
	_, errs, code = runScoringCmd(t, "", "lattice-best-path", "--acoustic-scale=0.083333", "ark:"+lat, "ark,t:"+tra)
	if code != 0 {
		t.Fatalf("best path: exit %d\n%s", code, errs)
	}
	got, _ := os.ReadFile(tra)
	want, _ := os.ReadFile(filepath.Join(k, "golden/test5_1best.tra"))
	if string(got) != string(want) {
		t.Errorf("1-best:\n%s\nKaldi:\n%s", got, want)
	}
	// decode-faster-mapped writes Kaldi's words too.
	_, errs, code = runScoringCmd(t, "", "decode-faster-mapped", "--max-active=7000", "--beam=13.0", "--acoustic-scale=0.083333",
		filepath.Join(k, "exp/mono/final.mdl"), filepath.Join(k, "exp/mono/graph/HCLG.fst"),
		"ark:"+filepath.Join(k, "golden/test5_loglikes.ark"), "ark,t:"+tra)
	got, _ = os.ReadFile(tra)
	want, _ = os.ReadFile(filepath.Join(k, "golden/test5_dfm.tra"))
	if code != 0 || string(got) != string(want) {
		t.Errorf("decode-faster-mapped: exit %d\n%s\n%s", code, got, errs)
	}
}
