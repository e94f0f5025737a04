package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

func runScoringCmd(t *testing.T, stdin string, args ...string) (string, string, int) {
	t.Helper()
	var out, errb bytes.Buffer
	code := app.Run(append([]string{"strode"}, args...), kaldicmd.Streams{Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb})
	return out.String(), errb.String(), code
}

func TestComputeWERCommand(t *testing.T) {
	td := filepath.Join("..", "..", "decoder", "scoring", "testdata")
	want, err := os.ReadFile(filepath.Join(td, "test5_wer.txt"))
	if err != nil {
		t.Fatal(err)
	}
	hyp, _ := os.ReadFile(filepath.Join(td, "test5_1best.txt"))
	out, errs, code := runScoringCmd(t, string(hyp), "compute-wer", "--text", "--mode=present", "ark:"+filepath.Join(td, "test5.text"), "ark,p:-")
	if code != 0 || out != string(want) {
		t.Errorf("exit %d\n%s\nstderr %s", code, out, errs)
	}
	// strict mode with a missing hypothesis: Kaldi's message, exit 255.
	out, errs, code = runScoringCmd(t, "spk00-test012 oh\n", "compute-wer", "ark:"+filepath.Join(td, "test5.text"), "ark:-")
	if code != 255 || out != "" || !strings.Contains(errs, "No hypothesis for key spk00-test018 and strict mode specifier.") {
		t.Errorf("strict: exit %d out %q stderr %q", code, out, errs)
	}
	out, _, code = runScoringCmd(t, "spk00-test012 oh\n", "compute-wer", "--mode=all", "ark:"+filepath.Join(td, "test5.text"), "ark:-")
	if code != 0 || !strings.HasPrefix(out, "%WER 95.24 [ 20 / 21, 0 ins, 20 del, 0 sub ] [PARTIAL]\n") {
		t.Errorf("all: exit %d out %q", code, out)
	}
}

func TestAlignTextCommand(t *testing.T) {
	dir := t.TempDir()
	ref, hyp, ali := filepath.Join(dir, "ref"), filepath.Join(dir, "hyp"), filepath.Join(dir, "ali")
	os.WriteFile(ref, []byte("u1 a b c\nu2 x\n"), 0o644)
	os.WriteFile(hyp, []byte("u1 a c d\n"), 0o644)
	_, errs, code := runScoringCmd(t, "", "align-text", "--special-symbol=***", "ark:"+ref, "ark:"+hyp, "ark,t:"+ali)
	got, _ := os.ReadFile(ali)
	if code != 0 || string(got) != "u1 a a ; b c ; c d \n" || !strings.Contains(errs, "Key u2 is in") {
		t.Errorf("exit %d, got %q, stderr %s", code, got, errs)
	}
}
