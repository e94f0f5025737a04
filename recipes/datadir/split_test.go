package datadir

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

// copyDir copies testdata/<name> into a fresh temporary directory.
func copyDir(t *testing.T, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dst, 0o777); err != nil {
		t.Fatal(err)
	}
	ents, err := os.ReadDir(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("testdata", name, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dst, e.Name())
		os.WriteFile(p, b, 0o666)
		os.Chtimes(p, old, old) // sources older than anything a test writes
	}
	return dst
}

func readFile(t *testing.T, p string) string {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSplitSpeakers(t *testing.T) {
	tests := []struct {
		counts []int
		n      int
		want   [][]int
	}{
		// a(5) b(1) | c(1) d(3): moving b evens the parts to 5 and 5.
		{[]int{5, 1, 1, 3}, 2, [][]int{{0}, {1, 2, 3}}},
		{[]int{5, 1, 1, 3}, 4, [][]int{{0}, {1}, {2}, {3}}},
		{[]int{1, 1, 1, 1, 1, 1, 1}, 3, [][]int{{0, 1, 2}, {3, 4}, {5, 6}}},
		{[]int{10, 1, 1, 1, 1}, 2, [][]int{{0}, {1, 2, 3, 4}}},
		// A big speaker stays alone.
		{[]int{1, 1, 100}, 3, [][]int{{0}, {1}, {2}}},
	}
	for _, tc := range tests {
		got := splitSpeakers(tc.counts, tc.n)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%v into %d: %v, want %v", tc.counts, tc.n, got, tc.want)
		}
	}
	for _, tc := range []struct{ lines, n, p, lo, hi int }{{10, 3, 0, 0, 4}, {10, 3, 1, 4, 7}, {10, 3, 2, 7, 10}, {4, 4, 3, 3, 4}} {
		if lo, hi := splitLines(tc.lines, tc.n, tc.p); lo != tc.lo || hi != tc.hi {
			t.Errorf("splitLines(%d, %d, %d) = %d, %d", tc.lines, tc.n, tc.p, lo, hi)
		}
	}
}

func TestSplitBySpeaker(t *testing.T) {
	dir := copyDir(t, "train")
	out, err := Split(dir, 2, false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if out != filepath.Join(dir, "split2") {
		t.Errorf("split dir %s", out)
	}
	want := map[string]string{
		"1/utt2spk":    "a-1 a\na-2 a\na-3 a\na-4 a\na-5 a\n",
		"1/spk2utt":    "a a-1 a-2 a-3 a-4 a-5\n",
		"1/cmvn.scp":   "a cmvn.ark:10\n",
		"1/spk2gender": "a m\n",
		"2/utt2spk":    "b-1 b\nc-1 c\nd-1 d\nd-2 d\nd-3 d\n",
		"2/spk2utt":    "b b-1\nc c-1\nd d-1 d-2 d-3\n",
		"2/text":       "b-1 ONE TWO\nc-1 ONE TWO\nd-1 ONE TWO\nd-2 ONE TWO\nd-3 ONE TWO\n",
		"2/wav.scp":    "b-1 /data/b-1.wav\nc-1 /data/c-1.wav\nd-1 /data/d-1.wav\nd-2 /data/d-2.wav\nd-3 /data/d-3.wav\n",
		"2/feats.scp":  "b-1 feats.ark:600\nc-1 feats.ark:700\nd-1 feats.ark:800\nd-2 feats.ark:900\nd-3 feats.ark:1000\n",
		"2/utt2dur":    "b-1 0.6\nc-1 0.7\nd-1 0.8\nd-2 0.9\nd-3 0.10\n",
		"2/cmvn.scp":   "b cmvn.ark:20\nc cmvn.ark:30\nd cmvn.ark:40\n",
	}
	for f, w := range want {
		if got := readFile(t, filepath.Join(out, f)); got != w {
			t.Errorf("%s:\n%s\nwant:\n%s", f, got, w)
		}
	}
	for p := 1; p <= 2; p++ {
		if err := Validate(filepath.Join(out, string(rune('0'+p))), ValidateOptions{}, io.Discard); err != nil {
			t.Errorf("part %d does not validate: %v", p, err)
		}
	}
	// One speaker per part; more parts than speakers is an error naming the directory.
	if _, err := Split(dir, 4, false, io.Discard); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(dir, "split4/3/utt2spk")); got != "c-1 c\n" {
		t.Errorf("split4/3/utt2spk %q", got)
	}
	_, err = Split(dir, 5, false, io.Discard)
	if !errors.Is(err, ErrTooFewSpeakers) || !strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "4 speakers") {
		t.Errorf("5 parts of 4 speakers: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "split5")); err == nil {
		t.Error("a refused split left split5 behind")
	}
}

func TestSplitPerUtt(t *testing.T) {
	dir := copyDir(t, "train")
	out, err := Split(dir, 3, true, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if out != filepath.Join(dir, "split3utt") {
		t.Errorf("split dir %s", out)
	}
	want := map[string]string{
		"1/utt2spk":  "a-1 a\na-2 a\na-3 a\na-4 a\n",
		"2/utt2spk":  "a-5 a\nb-1 b\nc-1 c\n",
		"2/spk2utt":  "a a-5\nb b-1\nc c-1\n",
		"2/cmvn.scp": "a cmvn.ark:10\nb cmvn.ark:20\nc cmvn.ark:30\n", // speaker a is in parts 1 and 2
		"3/utt2spk":  "d-1 d\nd-2 d\nd-3 d\n",
	}
	for f, w := range want {
		if got := readFile(t, filepath.Join(out, f)); got != w {
			t.Errorf("%s:\n%s\nwant:\n%s", f, got, w)
		}
	}
	if _, err := Split(dir, 11, true, io.Discard); !errors.Is(err, ErrTooFewSpeakers) || !strings.Contains(err.Error(), "10 utterances") {
		t.Errorf("11 parts of 10 utterances: %v", err)
	}
}

func TestSplitSegments(t *testing.T) {
	dir := copyDir(t, "segmented")
	out, err := Split(dir, 2, false, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"1/segments":              "x-r1-0000 r1 0.00 1.00\nx-r1-0100 r1 1.00 2.50\nx-r2-0000 r2 0 3\n",
		"1/wav.scp":               "r1 /data/r1.wav\nr2 /data/r2.wav\n",
		"1/reco2file_and_channel": "r1 r1 A\nr2 r2 A\n",
		"2/wav.scp":               "r3 sox /data/r3.flac -t wav - |\n",
		"2/text":                  "y-r3-0000 hello world\ny-r3-0200 hello world\n",
	}
	for f, w := range want {
		if got := readFile(t, filepath.Join(out, f)); got != w {
			t.Errorf("%s:\n%s\nwant:\n%s", f, got, w)
		}
	}
}

// A split newer than its sources is left alone; a newer source, or a part
// missing a file (an interrupted split), makes it split again.
func TestSplitUpToDate(t *testing.T) {
	dir := copyDir(t, "train")
	if _, err := Split(dir, 2, false, io.Discard); err != nil {
		t.Fatal(err)
	}
	part := filepath.Join(dir, "split2/2/text")
	past := time.Now().Add(-10 * time.Minute)
	os.Chtimes(part, past, past) // still newer than the sources (an hour old)
	if _, err := Split(dir, 2, false, io.Discard); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(part); !fi.ModTime().Equal(past) {
		t.Error("an up-to-date split was rewritten")
	}
	now := time.Now()
	os.Chtimes(filepath.Join(dir, "text"), now, now)
	if _, err := Split(dir, 2, false, io.Discard); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(part); fi.ModTime().Equal(past) {
		t.Error("a split older than text was not redone")
	}
	os.Remove(filepath.Join(dir, "split2/2/feats.scp"))
	if _, err := Split(dir, 2, false, io.Discard); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "split2/2/feats.scp")); err != nil {
		t.Error("a part missing feats.scp was not redone")
	}
	// The line-count warning of split_data.sh.
	os.WriteFile(filepath.Join(dir, "text"), []byte("a-1 X\n"), 0o666)
	// Newer than the parts just written beyond the file system's timestamp
	// granularity (a few ms), so that the split is redone and warns.
	later := time.Now().Add(time.Minute)
	os.Chtimes(filepath.Join(dir, "text"), later, later)
	var log strings.Builder
	if _, err := Split(dir, 2, false, &log); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "#lines is (utt2spk,text) is (10,1)") {
		t.Errorf("warning %q", log.String())
	}
}

func TestSplitErrors(t *testing.T) {
	dir := copyDir(t, "train")
	if _, err := Split(dir, 0, false, nil); err == nil || !strings.Contains(err.Error(), "Invalid num-split argument 0") {
		t.Errorf("%v", err)
	}
	os.WriteFile(filepath.Join(dir, "utt2spk"), []byte("a-1 a\na-2\n"), 0o666)
	if _, err := Split(dir, 2, false, nil); err == nil || !strings.Contains(err.Error(), filepath.Join(dir, "utt2spk")+":2") {
		t.Errorf("%v", err)
	}
	empty := t.TempDir()
	if _, err := Split(empty, 2, false, nil); !errors.Is(err, os.ErrNotExist) || !strings.Contains(err.Error(), empty) {
		t.Errorf("%v", err)
	}
}
