package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/kaldinnet"
)

// TestTrainWithTeacher: on a kaldi-mini-sized toy task (6 speakers × 6
// utterances, 13-dimensional features, 8 pdfs) strode train makes a tiny
// bidirectional sru teacher, then a causal strode student whose prior
// reads it (--prior-teacher) and a causal sru student distilled from it
// (--distill-teacher, --distill-weight); both decode with forward alone.
// A teacher on other features, or the prior teacher given to an sru
// student, fails with an error naming the file or the option (and
// writes no model).
func TestTrainWithTeacher(t *testing.T) {
	dir := t.TempDir()
	data, err := kaldinnet.WriteToyData(dir, kaldinnet.ToyOptions{Speakers: 6, UttsPerSpeaker: 6, Dim: 13, NumPdfs: 8, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	// The same features for every model: no CMVN in the model (as the
	// causal recipe's apply-cmvn-online input), left context only.
	common := []string{"--preset=small", "--sru-hidden=8", "--sru-layers=1", "--ode-state=4", "--ode-hidden=4",
		"--phi-hidden=4", "--prior-hidden=4", "--max-iters=2", "--minibatch-utts=4", "--learning-rate=0.01",
		"--left-context=2", "--right-context=0", "--seed=5"}
	train := func(out string, extra ...string) (int, string) {
		args := append(append(append([]string{"train"}, common...), extra...), data.Feats, data.Targets, filepath.Join(dir, out))
		code, _, stderr := runStrode(t, "", args...)
		return code, stderr
	}
	if code, stderr := train("teacher.am", "--model=sru", "--bidirectional=true"); code != 0 {
		t.Fatalf("teacher: exit %d\n%s", code, stderr)
	}
	teacher := filepath.Join(dir, "teacher.am")
	for _, c := range []struct {
		out  string
		args []string
		want string // in the log
	}{
		{"prior.am", []string{"--model=strode", "--causal", "--prior-teacher=" + teacher}, "teachers (prior"},
		{"distilled.am", []string{"--model=sru", "--causal", "--distill-teacher=" + teacher, "--distill-weight=0.5"}, "distillation"},
	} {
		code, stderr := train(c.out, c.args...)
		if code != 0 || !strings.Contains(stderr, c.want) {
			t.Fatalf("%s: exit %d, want %q in the log\n%s", c.out, code, c.want, stderr)
		}
		f, err := am.Load(filepath.Join(dir, c.out))
		if err != nil {
			t.Fatal(err)
		}
		if c.out == "prior.am" && (f.Model.Opts.PriorInput != am.PriorTeacher || f.Model.Opts.PriorInputDim != 16) {
			t.Errorf("%s: options %s, want prior_input teacher of 16 values", c.out, f.Model.Opts.JSON())
		}
		code, out, stderr := runStrode(t, "", "forward", "--apply-log=true", filepath.Join(dir, c.out), data.Feats, "ark,t:-")
		if code != 0 || strings.Count(out, "[") != 36 {
			t.Errorf("%s: forward without the teacher: exit %d, %d utterances\n%s", c.out, code, strings.Count(out, "["), stderr)
		}
	}
	// A teacher on other features (±1 frames, input 39) and the prior for an sru.
	if code, stderr := train("other.am", "--model=sru", "--bidirectional=true", "--left-context=1", "--right-context=1"); code != 0 {
		t.Fatalf("other teacher: exit %d\n%s", code, stderr)
	}
	other := filepath.Join(dir, "other.am")
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--model=strode", "--prior-teacher=" + other}, other + ": teacher does not fit: its feature pipeline"},
		{[]string{"--model=sru", "--distill-teacher=" + other, "--distill-weight=0.3"}, other + ": teacher does not fit"},
		{[]string{"--model=sru", "--prior-teacher=" + teacher}, "--prior-teacher is for --model=strode"},
		{[]string{"--model=sru", "--distill-weight=0.3"}, "give both"},
	} {
		if code, stderr := train("bad.am", c.args...); code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, want a failure and %q\n%s", c.args, code, c.want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.am")); err == nil {
		t.Error("a refused training wrote its model")
	}
}
