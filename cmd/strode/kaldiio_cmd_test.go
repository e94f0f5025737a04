package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/internal/shareddata"
)

// kaldiioGoldenFile returns the absolute path of a kaldi-golden file: the
// repository's copy in testdata/, else ../shared's (skipping the test when
// neither has it).
func kaldiioGoldenFile(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(shareddata.File(t, "kaldi-golden", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// kaldiioAbsScp copies a golden script with its archive paths made absolute
// (the goldens name them relative to their folder).
func kaldiioAbsScp(t *testing.T, scp string) string {
	b, err := os.ReadFile(scp)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		key, rx, _ := strings.Cut(line, " ")
		out = append(out, key+" "+filepath.Join(filepath.Dir(scp), rx))
	}
	p := filepath.Join(t.TempDir(), filepath.Base(scp))
	if err := os.WriteFile(p, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func runKaldiioCmd(t *testing.T, args ...string) (int, []byte, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := app.Run(append([]string{"strode"}, args...), kaldicmd.Streams{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb})
	return code, out.Bytes(), errb.String()
}

// The copy tools reproduce Kaldi's outputs byte for byte, with Kaldi's exit codes.
func TestKaldiioCommandsGolden(t *testing.T) {
	g := func(n string) string { return kaldiioGoldenFile(t, n) }
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"copy-feats", "ark:" + g("fbank23.ark"), "ark,t:-"}, "fbank23.txt.ark"},
		{[]string{"copy-feats", "ark:" + g("fbank23_cm.ark"), "ark,t:-"}, "fbank23_cm_decoded.txt.ark"},
		{[]string{"copy-feats", "--compress=true", "ark:" + g("fbank23.ark"), "ark:-"}, "fbank23_cm.ark"},
		{[]string{"copy-feats", "--compress=true", "--compression-method=5", "ark:" + g("fbank23.ark"), "ark:-"}, "fbank23_cm5.ark"},
		{[]string{"copy-feats", "--compress=true", "ark,t:" + g("mat.txt.ark"), "ark:-"}, "mat_cm.ark"},
		{[]string{"copy-matrix", "ark:" + g("cmvn23.ark"), "ark:-"}, "cmvn23_asfloat.ark"},
		{[]string{"copy-matrix", "--binary=true", g("mat_single.txt"), "-"}, "mat_single.bin"},
		{[]string{"copy-matrix", "ark:" + g("mat.ark"), "ark,t:-"}, "mat_roundtrip.txt.ark"},
		{[]string{"copy-vector", "ark,t:" + g("vec.txt.ark"), "ark:-"}, "vec.ark"},
		{[]string{"copy-vector", "--binary=true", g("pdf_counts.vec"), "-"}, "pdf_counts_asfloat.vec"},
		{[]string{"copy-int-vector", "ark:" + g("ali.ark"), "ark,t:-"}, "ali_roundtrip.txt.ark"},
		{[]string{"copy-int-vector", "ark,t:" + g("ali.txt.ark"), "ark:-"}, "ali.ark"},
		{[]string{"feat-to-dim", "ark:" + g("fbank23.ark"), "-"}, "fbank23.dim"},
		{[]string{"feat-to-len", "scp:" + kaldiioAbsScp(t, g("fbank23.scp")), "ark,t:-"}, "fbank23.len"},
	}
	for _, tc := range cases {
		t.Run(strings.Join(tc.args[:len(tc.args)-2], " "), func(t *testing.T) {
			code, out, stderr := runKaldiioCmd(t, tc.args...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			want, err := os.ReadFile(kaldiioGoldenFile(t, tc.want))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(out, want) {
				t.Errorf("output differs from Kaldi's %s (%d vs %d bytes)", tc.want, len(out), len(want))
			}
		})
	}
}

func TestKaldiioCommandsExitCodes(t *testing.T) {
	dir := t.TempDir()
	empty := filepath.Join(dir, "empty.ark")
	os.WriteFile(empty, nil, 0o644)
	bad := filepath.Join(dir, "bad.ark")
	os.WriteFile(bad, []byte("utt1 \x00BFM \x04\x02\x00\x00\x00\x04\x02\x00\x00\x00\x00\x00"), 0o644)
	cases := []struct {
		args    []string
		code    int
		inError string
	}{
		{[]string{"copy-feats", "ark:" + empty, "ark:-"}, 1, ""},
		{[]string{"copy-feats", "ark:" + filepath.Join(dir, "missing.ark"), "ark:-"}, 255, "missing.ark: cannot open"},
		{[]string{"copy-feats", "ark:" + bad, "ark:" + filepath.Join(dir, "out.ark")}, 255, `bad.ark: key "utt1": byte`},
		{[]string{"copy-feats", "ark:false |", "ark:-"}, 255, "false |"},
		{[]string{"copy-feats", "--compress=true", "--compression-method=9", "ark:" + bad, "ark:-"}, 255, "compression-method=9"},
		{[]string{"copy-feats", "foo:bar", "ark:-"}, 255, "foo:bar"},
		{[]string{"copy-matrix", "ark:" + bad, "out.mat"}, 255, "cannot mix"},
		{[]string{"feat-to-dim", "ark:" + empty, "-"}, 255, "empty archive"},
		{[]string{"copy-feats", "ark:" + bad}, 1, "expected 2 argument(s)"},
	}
	for _, tc := range cases {
		code, _, stderr := runKaldiioCmd(t, tc.args...)
		if code != tc.code || !strings.Contains(stderr, tc.inError) {
			t.Errorf("%v: exit %d (want %d), stderr:\n%s", tc.args, code, tc.code, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "out.ark")); err == nil {
		t.Error("a failed copy left its output file")
	}
}

// copy-matrix, copy-vector and copy-int-vector log Kaldi's lines: the count
// for a table, the target for one object.
func TestCopyToolsLogLines(t *testing.T) {
	g := func(n string) string { return kaldiioGoldenFile(t, n) }
	tmp := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"copy-matrix", "ark:" + g("fbank23.ark"), "ark:/dev/null"}, "Copied 4 matrices."},
		{[]string{"copy-vector", "ark:" + g("vec.ark"), "ark:/dev/null"}, "Copied 3 vectors."},
		{[]string{"copy-int-vector", "ark:" + g("ali.ark"), "ark:/dev/null"}, "Copied 3 vectors of int32."},
		{[]string{"copy-vector", g("pdf_counts.vec"), filepath.Join(tmp, "v")}, "Copied vector to " + filepath.Join(tmp, "v")},
	}
	for _, c := range cases {
		code, _, errs := runKaldiioCmd(t, c.args...)
		if code != 0 || !strings.Contains(errs, c.want) {
			t.Errorf("%v: exit %d, stderr %q; want %q", c.args, code, errs, c.want)
		}
	}
}
