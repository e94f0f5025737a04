package main

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strode-asr/strode/decoder/lm"
)

// ngram-count writes the toy bigram model of decoder/lm's tests (whose
// values are hand-computed there), gzip'd; ngram reads it back and prints
// SRILM's perplexity lines; arpa2fst compiles the plain file.
func TestNgramCountAndNgram(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text")
	os.WriteFile(text, []byte("a a a a\nb c b c\na\na a b b\n"), 0o644)
	test := filepath.Join(dir, "test")
	os.WriteFile(test, []byte("a b\nc d\n"), 0o644)
	arpaGz := filepath.Join(dir, "lm.arpa.gz")
	code, stdout, stderr := runStrode(t, "", "ngram-count", "-order", "2", "-kndiscount", "-interpolate", "-text", text, "-lm", arpaGz)
	if code != 0 || stdout != "" {
		t.Fatalf("ngram-count: exit %d\n%s%s", code, stdout, stderr)
	}
	f, err := lm.OpenFile(arpaGz)
	if err != nil {
		t.Fatal(err)
	}
	arpa, _ := io.ReadAll(f)
	f.Close()
	for _, line := range []string{"\n\\data\\\nngram 1=5\nngram 2=10\n", "-99\t<s>\t-0.5228788\n", "-0.1771784\t<s> a\n", "\n\\end\\\n"} {
		if !strings.Contains(string(arpa), line) {
			t.Errorf("ARPA file lacks %q:\n%s", line, arpa)
		}
	}
	// logprob = log10(0.665 · 723/4200 · 585/2400 · 0.055 · 0.25) = -3.4160420,
	// ppl = 4.8217913, ppl1 = 13.761972, by hand in decoder/lm/ppl_test.go (the
	// model's float32 log-probabilities, as SRILM's, may move ppl's 7th digit).
	code, stdout, stderr = runStrode(t, "", "ngram", "-lm", arpaGz, "-ppl", test)
	want := regexp.MustCompile(`^file ` + regexp.QuoteMeta(test) + `: 2 sentences, 4 words, 1 OOVs\n0 zeroprobs, logprob= -3\.41604[12] ppl= 4\.82179[12] ppl1= 13\.7619[78]\n$`)
	if code != 0 || !want.MatchString(stdout) {
		t.Errorf("ngram -ppl: exit %d\n%q\nwant\n%s\n%s", code, stdout, want, stderr)
	}
	code, stdout, _ = runStrode(t, "a b\n", "ngram", "-lm", arpaGz, "-ppl", "-", "-debug", "1")
	if code != 0 || !strings.HasPrefix(stdout, "a b\n1 sentences, 2 words, 0 OOVs\n0 zeroprobs, logprob= ") || !strings.Contains(stdout, "\n\nfile -: 1 sentences") {
		t.Errorf("ngram -debug 1: exit %d\n%s", code, stdout)
	}
	plain := filepath.Join(dir, "lm.arpa")
	os.WriteFile(plain, arpa, 0o644)
	code, _, stderr = runStrode(t, "", "arpa2fst", "--disambig-symbol=#0", plain, filepath.Join(dir, "G.fst"))
	if code != 0 {
		t.Errorf("arpa2fst on our ARPA file: exit %d\n%s", code, stderr)
	}
	// Without -lm the counts go to standard output.
	code, stdout, _ = runStrode(t, "a b\n", "ngram-count", "-order", "2", "-text", "-")
	if code != 0 || !strings.Contains(stdout, "<s> a\t1\n") {
		t.Errorf("counts to stdout: exit %d\n%s", code, stdout)
	}
}

// A closed vocabulary with -unk -map-unk: the toy text's unigrams (decoder/lm's
// hand computation: λ = 7/15, D1..D3+ = 1/3, 1, 5/3) now interpolate with the
// uniform distribution over V = 6 events (a b c z </s> <UNK>), so p(a) =
// (2 - 1)/10 + 7/15·1/6 = 16/90, and the unseen z and <UNK> share the
// left-over 2·7/90 equally: 7/90 each.
func TestNgramCountClosedVocabulary(t *testing.T) {
	dir := t.TempDir()
	text, vocab := filepath.Join(dir, "text"), filepath.Join(dir, "words.txt")
	os.WriteFile(text, []byte("a a a a\nb c b c\na\na a b b\n"), 0o644)
	os.WriteFile(vocab, []byte("a 1\nb 2\nc 3\nz 4\n"), 0o644)
	code, stdout, stderr := runStrode(t, "", "ngram-count", "-order", "2", "-kndiscount", "-interpolate", "-vocab", vocab, "-unk", "-map-unk", "<UNK>", "-text", text, "-lm", "-")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	m, err := lm.ReadARPA(strings.NewReader(stdout), "lm", lm.ReadOptions{Unk: "<UNK>", UnkIsWord: true})
	if err != nil {
		t.Fatal(err)
	}
	for w, p := range map[string]float64{"a": 16.0 / 90, "z": 7.0 / 90, "<UNK>": 7.0 / 90} {
		if lp, _, ok := m.Ngram(w); !ok || math.Abs(lp-math.Log10(p)) > 1e-6 {
			t.Errorf("log10 p(%s) = %.7f, hand-computed %.7f", w, lp, math.Log10(p))
		}
	}
	// Scoring with -unk, a word outside the vocabulary is <UNK>, which has a
	// probability: no OOVs. Without a <UNK> in the model it is an OOV.
	arpa := filepath.Join(dir, "lm.arpa")
	os.WriteFile(arpa, []byte(stdout), 0o644)
	code, stdout, _ = runStrode(t, "a q\n", "ngram", "-lm", arpa, "-unk", "-map-unk", "<UNK>", "-ppl", "-")
	if code != 0 || !strings.HasPrefix(stdout, "file -: 1 sentences, 2 words, 0 OOVs\n") {
		t.Errorf("-unk: exit %d\n%s", code, stdout)
	}
	code, stdout, _ = runStrode(t, "a q\n", "ngram", "-lm", arpa, "-ppl", "-")
	if code != 0 || !strings.HasPrefix(stdout, "file -: 1 sentences, 2 words, 1 OOVs\n") {
		t.Errorf("without -map-unk: exit %d\n%s", code, stdout)
	}
}

func TestNgramCountErrors(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text")
	os.WriteFile(text, []byte("a a a a\nb c b c\na\na a b b\n"), 0o644)
	empty := filepath.Join(dir, "empty")
	os.WriteFile(empty, []byte("\n \n"), 0o644)
	out := filepath.Join(dir, "lm.arpa")
	for _, tc := range []struct {
		name string
		code int
		args []string
		want string
	}{
		{"order 0", 1, []string{"-order", "0", "-kndiscount", "-text", text, "-lm", out}, "-order must be at least 1, got 0"},
		{"empty text", 255, []string{"-kndiscount", "-text", empty, "-lm", out}, "text " + empty + " has no sentences"},
		{"missing text", 255, []string{"-kndiscount", "-text", filepath.Join(dir, "nope"), "-lm", out}, filepath.Join(dir, "nope")},
		{"unreadable vocab", 255, []string{"-kndiscount", "-vocab", filepath.Join(dir, "words.txt"), "-text", text, "-lm", out},
			"cannot read -vocab file: lm: open " + filepath.Join(dir, "words.txt")},
		{"too little text", 255, []string{"-order", "3", "-kndiscount", "-text", text, "-lm", out}, "estimating from " + text + ": lm: order 2:"},
		{"no -kndiscount", 1, []string{"-text", text, "-lm", out}, "give -kndiscount or -wbdiscount"},
		{"both discounts", 1, []string{"-kndiscount", "-wbdiscount", "-text", text, "-lm", out}, "-kndiscount and -wbdiscount: give one"},
		{"unknown option", 1, []string{"-cdiscount", "3", "-text", text}, "unknown option -cdiscount"},
		{"missing value", 1, []string{"-text"}, "option -text needs a value"},
		{"bad value", 1, []string{"-gt3min", "x"}, `option -gt3min: bad value "x"`},
		{"positional", 1, []string{"text"}, `unexpected argument "text"`},
	} {
		code, _, stderr := runStrode(t, "", append([]string{"ngram-count"}, tc.args...)...)
		if code != tc.code || !strings.Contains(stderr, tc.want) {
			t.Errorf("%s: exit %d (want %d), stderr:\n%s\nwant it to contain %q", tc.name, code, tc.code, stderr, tc.want)
		}
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("a failed run left %s", out)
	}
	bad := filepath.Join(dir, "bad.arpa")
	os.WriteFile(bad, []byte("\\data\\\nngram 1=1\n\\1-grams:\n-1 a b c\n"), 0o644)
	code, _, stderr := runStrode(t, "", "ngram", "-lm", bad, "-ppl", text)
	if code != 255 || !strings.Contains(stderr, bad+":4: a 1-gram line needs 2 or 3 fields") {
		t.Errorf("bad ARPA: exit %d, stderr %s", code, stderr)
	}
	code, _, stderr = runStrode(t, "", "ngram", "-ppl", text)
	if code != 1 || !strings.Contains(stderr, "-lm FILE is required") {
		t.Errorf("no -lm: exit %d, stderr %s", code, stderr)
	}
	code, stdout, _ := runStrode(t, "", "ngram-count", "-help")
	if code != 0 || !strings.Contains(stdout, "-gt3min") || !strings.Contains(stdout, "-kndiscount") {
		t.Errorf("-help: exit %d\n%s", code, stdout)
	}
}

// ngram-count -wbdiscount writes decoder/lm's hand-computed Witten-Bell toy:
// p(a|<s>) = 79/126 (log10 -0.20274), bow(<s>) = 1/3 (log10 -0.4771); the
// ARPA file compiles with arpa2fst.
func TestNgramCountWittenBell(t *testing.T) {
	dir := t.TempDir()
	text := filepath.Join(dir, "text")
	os.WriteFile(text, []byte("a a a a\nb c b c\na\na a b b\n"), 0o644)
	arpa := filepath.Join(dir, "lm.arpa")
	code, _, stderr := runStrode(t, "", "ngram-count", "-order", "2", "-wbdiscount", "-interpolate", "-text", text, "-lm", arpa)
	if code != 0 {
		t.Fatalf("ngram-count -wbdiscount: exit %d\n%s", code, stderr)
	}
	b, err := os.ReadFile(arpa)
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{"-99\t<s>\t-0.4771212\n", "-0.2027435\t<s> a\n"} {
		if !strings.Contains(string(b), line) {
			t.Errorf("ARPA file lacks %q:\n%s", line, b)
		}
	}
	if code, _, stderr = runStrode(t, "", "arpa2fst", "--disambig-symbol=#0", arpa, filepath.Join(dir, "G.fst")); code != 0 {
		t.Errorf("arpa2fst on the Witten-Bell ARPA file: exit %d\n%s", code, stderr)
	}
}
