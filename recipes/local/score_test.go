// Package local holds recipe-side scripts shared by the recipes (score.sh);
// this test runs score.sh on kaldi-mini's Kaldi lattices.
package local

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/internal/testbin"
)

func TestScoreScript(t *testing.T) {
	k, _ := filepath.Abs(shareddata.Dir(t, "kaldi-mini"))
	dir := t.TempDir()
	bin := testbin.Strode(t)
	dec := filepath.Join(dir, "decode")
	os.MkdirAll(dec, 0o755)
	lat, err := os.ReadFile(filepath.Join(k, "exp/mono/decode_test/lat.1.gz"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dec, "lat.1.gz"), lat, 0o644)
	out, err := exec.Command("./score.sh", "--strode", bin, filepath.Join(k, "data/test"), filepath.Join(k, "exp/mono/graph"), dec).CombinedOutput()
	if err != nil {
		t.Fatalf("score.sh: %v\n%s", err, out)
	}
	// Kaldi's score_kaldi.sh on the same lattices: every LM weight and
	// penalty gives this line, and LM weight 7, penalty 0 is reported.
	want := "%WER 0.91 [ 1 / 110, 1 ins, 0 del, 0 sub ] " + filepath.Join(dec, "wer_7_0.0")
	if got := strings.TrimSpace(string(out)); got != want {
		t.Errorf("best_wer %q, want %q", got, want)
	}
	hyp, _ := os.ReadFile(filepath.Join(dec, "scoring/penalty_0.0/7.txt"))
	kaldi, _ := os.ReadFile(filepath.Join(k, "exp/mono/decode_test/hyp_lmwt7_wip0.0.txt"))
	if string(hyp) != string(kaldi) {
		t.Errorf("LM weight 7 hypotheses differ from Kaldi's")
	}
	wer, _ := os.ReadFile(filepath.Join(dec, "wer_7_0.0"))
	kwer, _ := os.ReadFile(filepath.Join(k, "exp/mono/decode_test/wer_7_0.0"))
	if !strings.HasSuffix(string(kwer), string(wer)) {
		t.Errorf("wer_7_0.0:\n%s\nKaldi:\n%s", wer, kwer)
	}
}
