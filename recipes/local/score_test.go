// Package local holds recipe-side scripts shared by the recipes (score.sh);
// this test runs score.sh on kaldi-mini's Kaldi lattices.
package local

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
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

// scoreKaldiMini runs score.sh (with extra options) on kaldi-mini's Kaldi
// lattices, graph words and data/test, returning the decode dir.
func scoreKaldiMini(t *testing.T, k string, opts ...string) string {
	t.Helper()
	return scoreKaldiMiniIn(t, ".", k, opts...)
}

// scoreKaldiMiniIn is scoreKaldiMini run from the folder cwd.
func scoreKaldiMiniIn(t *testing.T, cwd, k string, opts ...string) string {
	t.Helper()
	script, _ := filepath.Abs("score.sh")
	dec := filepath.Join(t.TempDir(), "decode")
	os.MkdirAll(dec, 0o755)
	lat, err := os.ReadFile(filepath.Join(k, "exp/mono/decode_test/lat.1.gz"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dec, "lat.1.gz"), lat, 0o644)
	args := append(append([]string{"--strode", testbin.Strode(t)}, opts...), filepath.Join(k, "data/test"), filepath.Join(k, "exp/mono/graph"), dec)
	c := exec.Command(script, args...)
	c.Dir = cwd
	if out, err := c.CombinedOutput(); err != nil {
		t.Fatalf("score.sh: %v\n%s", err, out)
	}
	return dec
}

// fieldsOf is a file's lines as their whitespace-separated fields: the
// comparison "whitespace aside".
func fieldsOf(s string) string {
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(s, "\n"), "\n") {
		lines = append(lines, strings.Join(strings.Fields(l), " "))
	}
	return strings.Join(lines, "\n")
}

var bootciLine = regexp.MustCompile(`^Set1: %WER (\S+) 95% Conf Interval \[ (\S+), (\S+) \]$`)

// The wer_details Kaldi's steps/score_kaldi.sh wrote for kaldi-mini's
// monophone decode, from the same lattices: per_utt, per_spk, ops, lmwt and
// wip the same whitespace aside, wer_bootci's three numbers within 0.5.
func TestScoreScriptWerDetailsMatchKaldi(t *testing.T) {
	k, _ := filepath.Abs(shareddata.Dir(t, "kaldi-mini"))
	kaldi := filepath.Dir(shareddata.File(t, "kaldi-mini", "exp/mono/decode_test/wer_details/per_utt"))
	dec := scoreKaldiMini(t, k)
	wd := filepath.Join(dec, "scoring_kaldi", "wer_details")
	for _, name := range []string{"per_utt", "per_spk", "ops", "lmwt", "wip", "wer_bootci"} {
		got, err := os.ReadFile(filepath.Join(wd, name))
		if err != nil {
			t.Error(err)
			continue
		}
		want, err := os.ReadFile(filepath.Join(kaldi, name))
		if err != nil {
			t.Fatal(err)
		}
		if name != "wer_bootci" {
			if fieldsOf(string(got)) != fieldsOf(string(want)) {
				t.Errorf("%s:\n%s\nKaldi's:\n%s", name, got, want)
			}
			continue
		}
		g := bootciLine.FindStringSubmatch(strings.TrimSpace(string(got)))
		w := bootciLine.FindStringSubmatch(strings.TrimSpace(string(want)))
		if g == nil || w == nil {
			t.Errorf("wer_bootci %q, Kaldi's %q: not a Set1 line", got, want)
			continue
		}
		for i := 1; i <= 3; i++ {
			a, _ := strconv.ParseFloat(g[i], 64)
			b, _ := strconv.ParseFloat(w[i], 64)
			if d := a - b; d > 0.5 || d < -0.5 {
				t.Errorf("wer_bootci %q, Kaldi's %q", got, want)
			}
		}
	}
	// The rest of score_kaldi.sh's layout, and today's outputs beside it.
	for _, f := range []string{"scoring_kaldi/best_wer", "scoring_kaldi/test_filt.txt", "scoring_kaldi/penalty_0.5/17.txt",
		"best_wer", "scoring/test_filt.txt", "scoring/penalty_1.0/7.txt", "wer_17_1.0"} {
		if _, err := os.Stat(filepath.Join(dec, f)); err != nil {
			t.Error(err)
		}
	}
	ref, _ := os.ReadFile(filepath.Join(k, "exp/mono/decode_test/ref.txt"))
	filt, _ := os.ReadFile(filepath.Join(dec, "scoring_kaldi/test_filt.txt"))
	if string(ref) != string(filt) {
		t.Errorf("scoring_kaldi/test_filt.txt differs from Kaldi's")
	}
}

// Filters as score_kaldi.sh finds them, local/wer_hyp_filter and
// local/wer_ref_filter under the directory it runs from, and as options.
func TestScoreScriptFilters(t *testing.T) {
	k, _ := filepath.Abs(shareddata.Dir(t, "kaldi-mini"))
	// As options: the hypotheses lose every "oh", so the insertion goes and
	// every "oh" of the reference is deleted.
	dec := scoreKaldiMini(t, k, "--word-ins-penalty", "0.0,1.0", "--min-lmwt", "9", "--max-lmwt", "10",
		"--hyp-filtering-cmd", `sed -e s/\<oh\>//g`, "--stats", "false")
	hyp, _ := os.ReadFile(filepath.Join(dec, "scoring_kaldi/penalty_1.0/10.txt"))
	if strings.Contains(string(hyp), " oh ") || len(hyp) == 0 {
		t.Errorf("hypotheses not filtered:\n%s", hyp)
	}
	if b, _ := os.ReadFile(filepath.Join(dec, "best_wer")); !strings.Contains(string(b), " 0 ins, 8 del, 0 sub ] "+filepath.Join(dec, "wer_9_0.0")) {
		t.Errorf("best_wer %s", b)
	}
	if _, err := os.Stat(filepath.Join(dec, "scoring_kaldi/wer_details")); err == nil {
		t.Errorf("--stats false wrote wer_details")
	}

	// Found in local/: the reference's "oh" becomes "zero", so the
	// hypotheses' 8 "oh" are substitutions.
	cwd := t.TempDir()
	os.MkdirAll(filepath.Join(cwd, "local"), 0o755)
	os.WriteFile(filepath.Join(cwd, "local", "wer_ref_filter"), []byte("#!/bin/sh\nsed -e 's/\\<oh\\>/zero/g'\n"), 0o755)
	dec = scoreKaldiMiniIn(t, cwd, k, "--min-lmwt", "7", "--max-lmwt", "7", "--word-ins-penalty", "0.0")
	filt, _ := os.ReadFile(filepath.Join(dec, "scoring_kaldi/test_filt.txt"))
	if strings.Contains(string(filt), " oh") {
		t.Errorf("reference not filtered:\n%s", filt)
	}
	if b, _ := os.ReadFile(filepath.Join(dec, "best_wer")); !strings.Contains(string(b), "[ 9 / 110, 1 ins, 0 del, 8 sub ]") {
		t.Errorf("best_wer %s", b)
	}
	if b, _ := os.ReadFile(filepath.Join(dec, "scoring_kaldi/wer_details/ops")); !strings.Contains(string(b), "substitution   zero       oh     8") {
		t.Errorf("ops:\n%s", b)
	}
}
