package datadir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFix(t *testing.T) {
	dir := copyDir(t, "train")
	// Unsorted text with a duplicate and without d-3; feats.scp without a-2;
	// cmvn.scp without speaker c; an utt2dur line for an unknown utterance
	// (utt2dur is filtered but, as in Kaldi, does not decide which utterances stay).
	os.WriteFile(filepath.Join(dir, "text"), []byte("b-1 X\na-1 X\na-2 X\na-3 X\na-4 X\na-5 X\na-1 Y\nc-1 X\nd-1 X\nd-2 X\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "feats.scp"), []byte("a-1 f\na-3 f\na-4 f\na-5 f\nb-1 f\nc-1 f\nd-1 f\nd-2 f\nd-3 f\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "cmvn.scp"), []byte("a c\nb c\nd c\n"), 0o666)
	os.WriteFile(filepath.Join(dir, "utt2dur"), []byte(readFile(t, filepath.Join(dir, "utt2dur"))+"z-9 1\n"), 0o666)
	var log strings.Builder
	if err := Fix(dir, &log); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"utt2spk":    "a-1 a\na-3 a\na-4 a\na-5 a\nb-1 b\nd-1 d\nd-2 d\n",
		"spk2utt":    "a a-1 a-3 a-4 a-5\nb b-1\nd d-1 d-2\n",
		"text":       "a-1 X\na-3 X\na-4 X\na-5 X\nb-1 X\nd-1 X\nd-2 X\n",
		"feats.scp":  "a-1 f\na-3 f\na-4 f\na-5 f\nb-1 f\nd-1 f\nd-2 f\n",
		"cmvn.scp":   "a c\nb c\nd c\n",
		"spk2gender": "a m\nb f\nd m\n",
		"utt2dur":    "a-1 0.1\na-3 0.3\na-4 0.4\na-5 0.5\nb-1 0.6\nd-1 0.8\nd-2 0.9\n",
	}
	for f, w := range want {
		if got := readFile(t, filepath.Join(dir, f)); got != w {
			t.Errorf("%s:\n%s\nwant:\n%s", f, got, w)
		}
	}
	for _, w := range []string{
		"file " + filepath.Join(dir, "text") + " is not in sorted order or not unique, sorting it",
		"dropped 1 speakers missing from cmvn.scp or spk2gender",
		"kept 7 utterances out of 9 (dropped 2)",
		"old files are kept in " + filepath.Join(dir, ".backup"),
	} {
		if !strings.Contains(log.String(), w) {
			t.Errorf("log lacks %q:\n%s", w, log.String())
		}
	}
	if got := readFile(t, filepath.Join(dir, ".backup/utt2spk")); !strings.HasPrefix(got, "a-1 a\na-2 a\n") {
		t.Errorf("backup utt2spk %q", got)
	}
	if err := Validate(dir, ValidateOptions{}, nil); err != nil {
		t.Errorf("the fixed directory does not validate: %v", err)
	}
	// Fixing again changes nothing.
	log.Reset()
	if err := Fix(dir, &log); err != nil || !strings.Contains(log.String(), "kept all 7 utterances.") {
		t.Errorf("%v %s", err, log.String())
	}
}

func TestFixSegments(t *testing.T) {
	dir := copyDir(t, "segmented")
	// Recording r2 has no audio: its segment, utterance and line in reco2file_and_channel go.
	os.WriteFile(filepath.Join(dir, "wav.scp"), []byte("r1 /data/r1.wav\nr3 x.wav\nr9 y.wav\n"), 0o666)
	var log strings.Builder
	if err := Fix(dir, &log); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"segments":              "x-r1-0000 r1 0.00 1.00\nx-r1-0100 r1 1.00 2.50\ny-r3-0000 r3 0.0 2.0\ny-r3-0200 r3 2.0 4.0\n",
		"wav.scp":               "r1 /data/r1.wav\nr3 x.wav\n",
		"reco2file_and_channel": "r1 r1 A\nr3 r3 B\n",
		"utt2spk":               "x-r1-0000 x\nx-r1-0100 x\ny-r3-0000 y\ny-r3-0200 y\n",
	}
	for f, w := range want {
		if got := readFile(t, filepath.Join(dir, f)); got != w {
			t.Errorf("%s:\n%s\nwant:\n%s", f, got, w)
		}
	}
	if !strings.Contains(log.String(), "kept 4 utterances out of 5 (dropped 1)") {
		t.Errorf("log:\n%s", log.String())
	}
}

func TestFixErrors(t *testing.T) {
	dir := copyDir(t, "train")
	os.WriteFile(filepath.Join(dir, "feats.scp"), []byte("zz f\n"), 0o666)
	if err := Fix(dir, nil); !errors.Is(err, ErrNoUtterances) || !strings.Contains(err.Error(), dir) {
		t.Errorf("%v", err)
	}
	os.Remove(filepath.Join(dir, "utt2spk"))
	if err := Fix(dir, nil); err == nil || !strings.Contains(err.Error(), "no such file "+filepath.Join(dir, "utt2spk")) {
		t.Errorf("%v", err)
	}
	seg := copyDir(t, "segmented")
	os.Remove(filepath.Join(seg, "wav.scp"))
	if err := Fix(seg, nil); err == nil || !strings.Contains(err.Error(), "segments exists but not") {
		t.Errorf("%v", err)
	}
}
