package scoring

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Kaldi's compute-wer-bootci --mode=present on kaldi-mini's best LM weight
// (its scoring_kaldi/wer_details/wer_bootci): the same draws give the same
// line.
func TestBootCIKaldiMini(t *testing.T) {
	ref, _ := os.ReadFile(filepath.Join("testdata", "ref30.txt"))
	hyp, _ := os.ReadFile(filepath.Join("testdata", "hyp30_lmwt7_wip0.0.txt"))
	b := bootstrapOf(t, string(ref), Present, string(hyp))
	var out bytes.Buffer
	if err := b.Run(&out, 10000); err != nil {
		t.Fatal(err)
	}
	if want := "Set1: %WER 0.92 95% Conf Interval [ -0.91, 2.76 ]\n"; out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
}

// Two systems, against Kaldi's bootstrap functions compiled with glibc's
// rand() (the same seed-1 stream: set 1, set 2, then the comparison),
// including a constant WER (float rounding gives it a small interval) and
// references with no words (0/0).
func TestBootCITwoSystems(t *testing.T) {
	for _, tc := range []struct {
		set1, set2   []UttErrors
		replications int
		want         string
	}{
		{[]UttErrors{{1, 4}, {0, 3}, {2, 5}, {0, 6}, {3, 3}}, []UttErrors{{0, 4}, {1, 3}, {2, 5}, {0, 6}, {1, 3}}, 10000,
			"Set1: %WER 29.65 95% Conf Interval [ 0.66, 58.64 ]\n" +
				"Set2: %WER 19.60 95% Conf Interval [ 2.70, 36.49 ]\n" +
				"Probability of Set2 improving Set1: 73.90\n"},
		{[]UttErrors{{1, 3}}, []UttErrors{{1, 3}}, 1000,
			"Set1: %WER 33.33 95% Conf Interval [ 33.17, 33.50 ]\n" +
				"Set2: %WER 33.33 95% Conf Interval [ 33.17, 33.50 ]\n" +
				"Probability of Set2 improving Set1: 0.00\n"},
		{[]UttErrors{{0, 0}, {0, 0}}, []UttErrors{{0, 0}, {1, 0}}, 100,
			"Set1: %WER -nan 95% Conf Interval [ -nan, -nan ]\n" +
				"Set2: %WER -nan 95% Conf Interval [ -nan, -nan ]\n" +
				"Probability of Set2 improving Set1: 0.00\n"},
	} {
		b := &Bootstrap{Sets: [][]UttErrors{tc.set1, tc.set2}}
		var out bytes.Buffer
		if err := b.Run(&out, tc.replications); err != nil {
			t.Fatal(err)
		}
		if out.String() != tc.want {
			t.Errorf("%v %v:\n%s\nwant\n%s", tc.set1, tc.set2, out.String(), tc.want)
		}
	}
}

// The modes decide which utterances are resampled, as compute-wer-bootci's.
func TestBootstrapModes(t *testing.T) {
	ref := "u1 a b c\nu2 d e\nu3\n"
	hyp1 := "u1 a x c\nu3 f\n"
	hyp2 := "u1 a b c\nu2 d\nu3\n"
	for _, tc := range []struct {
		mode Mode
		hyps []string
		want [][]UttErrors
	}{
		{Present, []string{hyp1}, [][]UttErrors{{{1, 3}, {1, 0}}}},
		{All, []string{hyp1}, [][]UttErrors{{{1, 3}, {2, 2}, {1, 0}}}},
		{Present, []string{hyp1, hyp2}, [][]UttErrors{{{1, 3}, {1, 0}}, {{0, 3}, {0, 0}}}},
		{All, []string{hyp1, hyp2}, [][]UttErrors{{{1, 3}, {2, 2}, {1, 0}}, {{0, 3}, {1, 2}, {0, 0}}}},
	} {
		b := bootstrapOf(t, ref, tc.mode, tc.hyps...)
		if fmt.Sprint(b.Sets) != fmt.Sprint(tc.want) {
			t.Errorf("mode %v, %d sets: %v, want %v", tc.mode, len(tc.hyps), b.Sets, tc.want)
		}
	}
	b := NewBootstrap(Strict, 1)
	if err := b.Add("u2", []string{"d"}, [][]string{nil}, []bool{false}); !errors.Is(err, ErrMissingHypothesis) {
		t.Errorf("strict: %v", err)
	}
	b = NewBootstrap(Strict, 2)
	if err := b.Add("u2", []string{"d"}, [][]string{{"d"}, nil}, []bool{true, false}); !errors.Is(err, ErrMissingHypothesis) || !strings.Contains(err.Error(), "in both transcripts") {
		t.Errorf("strict, two sets: %v", err)
	}
	if err := NewBootstrap(Present, 1).Run(io.Discard, 10); !errors.Is(err, ErrNothingScored) {
		t.Errorf("nothing scored: %v", err)
	}
}

// bootstrapOf collects compute-wer-bootci's errors of hypothesis tables
// against a reference table.
func bootstrapOf(t *testing.T, ref string, mode Mode, hyps ...string) *Bootstrap {
	t.Helper()
	tables := make([]map[string][]string, len(hyps))
	for i, h := range hyps {
		m, err := ReadTokenTable(bytes.NewReader([]byte(h)), "hyp")
		if err != nil {
			t.Fatal(err)
		}
		tables[i] = m
	}
	b := NewBootstrap(mode, len(hyps))
	r := NewTokenReader(bytes.NewReader([]byte(ref)), "ref")
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		hs := make([][]string, len(hyps))
		ok := make([]bool, len(hyps))
		for i, m := range tables {
			hs[i], ok[i] = m[e.Key]
		}
		if err := b.Add(e.Key, e.Tokens, hs, ok); err != nil {
			t.Fatal(err)
		}
	}
	return b
}
