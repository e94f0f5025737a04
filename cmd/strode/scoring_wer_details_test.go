package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The wer_details chain of score_kaldi.sh on the hand-made case of
// decoder/scoring/testdata/details: align-text, then the three tools, against
// what Kaldi's perl scripts printed.
func TestWerDetailsCommands(t *testing.T) {
	td := filepath.Join("..", "..", "decoder", "scoring", "testdata", "details")
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(td, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	ali, errs, code := runScoringCmd(t, "", "align-text", "--special-symbol=***", "ark:"+filepath.Join(td, "ref"), "ark:"+filepath.Join(td, "hyp"), "ark,t:-")
	if code != 0 || ali != read("align.txt") {
		t.Fatalf("align-text: exit %d\n%s\nstderr %s", code, ali, errs)
	}
	perUtt, errs, code := runScoringCmd(t, ali, "wer-per-utt-details", "--special-symbol", "***")
	if code != 0 || perUtt != read("per_utt") {
		t.Errorf("wer-per-utt-details: exit %d\n%s\nstderr %s", code, perUtt, errs)
	}
	perSpk, errs, code := runScoringCmd(t, perUtt, "wer-per-spk-details", filepath.Join(td, "utt2spk"))
	if code != 0 || perSpk != read("per_spk") {
		t.Errorf("wer-per-spk-details: exit %d\n%s\nstderr %s", code, perSpk, errs)
	}
	ops, errs, code := runScoringCmd(t, perUtt, "wer-ops-details", "--special-symbol=***")
	if code != 0 || ops != read("ops_unsorted") || !strings.Contains(errs, "WARNING") || !strings.Contains(errs, "c-utt6 ref") {
		t.Errorf("wer-ops-details: exit %d\n%s\nstderr %s", code, ops, errs)
	}
	// score_kaldi.sh's sort of it (score.sh runs the same command).
	if _, err := exec.LookPath("sort"); err == nil {
		c := exec.Command("sort", "-b", "-i", "-k", "1,1", "-k", "4,4rn", "-k", "2,2", "-k", "3,3")
		c.Env = append(os.Environ(), "LC_ALL=C")
		c.Stdin = strings.NewReader(ops)
		sorted, err := c.Output()
		if err != nil || string(sorted) != read("ops") {
			t.Errorf("sorted ops (%v):\n%s", err, sorted)
		}
	}

	// Getopt::Long's negations.
	for _, neg := range []string{"--nooutput-ref", "--no-output-ref", "--output-ref=false"} {
		out, errs, code := runScoringCmd(t, "u a a ; b c\n", "wer-per-utt-details", neg, "--nooutput-csid")
		if code != 0 || out != "u hyp  a  c\nu op   C  S\n" {
			t.Errorf("%s: exit %d %q %s", neg, code, out, errs)
		}
	}
	// Bad input: an error naming the file and line.
	_, errs, code = runScoringCmd(t, "u1 #csid 1 0 0 0\nu2 #csid 1 0 0 0\n", "wer-per-spk-details", filepath.Join(td, "utt2spk"))
	if code == 0 || !strings.Contains(errs, "standard input line 1") || !strings.Contains(errs, "u1 is not in utt2spk") {
		t.Errorf("unknown utterance: exit %d, stderr %s", code, errs)
	}
	bad := filepath.Join(t.TempDir(), "utt2spk")
	os.WriteFile(bad, []byte("u1 s1\nu2 s2 extra\n"), 0o644)
	_, errs, code = runScoringCmd(t, "", "wer-per-spk-details", bad)
	if code == 0 || !strings.Contains(errs, bad+" line 2") {
		t.Errorf("bad utt2spk: exit %d, stderr %s", code, errs)
	}
}

func TestComputeWERBootCICommand(t *testing.T) {
	td := filepath.Join("..", "..", "decoder", "scoring", "testdata")
	ref, hyp := "ark:"+filepath.Join(td, "ref30.txt"), "ark:"+filepath.Join(td, "hyp30_lmwt7_wip0.0.txt")
	// Kaldi's wer_bootci for kaldi-mini's best LM weight.
	out, errs, code := runScoringCmd(t, "", "compute-wer-bootci", "--mode=present", ref, hyp)
	if code != 0 || out != "Set1: %WER 0.92 95% Conf Interval [ -0.91, 2.76 ]\n" {
		t.Errorf("exit %d %q %s", code, out, errs)
	}
	out, errs, code = runScoringCmd(t, "", "compute-wer-bootci", "--replications=100", ref, hyp, ref)
	if code != 0 || !strings.HasPrefix(out, "Set1: %WER ") || !strings.Contains(out, "\nSet2: %WER 0.00 95% Conf Interval [ 0.00, 0.00 ]\nProbability of Set2 improving Set1: ") {
		t.Errorf("two sets: exit %d %q %s", code, out, errs)
	}
	_, errs, code = runScoringCmd(t, "spk00-test012 oh\n", "compute-wer-bootci", ref, "ark:-")
	if code != 255 || !strings.Contains(errs, "No hypothesis for key") {
		t.Errorf("strict: exit %d %s", code, errs)
	}
}
