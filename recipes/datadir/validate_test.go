package datadir

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestValidateGood(t *testing.T) {
	for _, name := range []string{"train", "segmented"} {
		var log strings.Builder
		dir := filepath.Join("testdata", name)
		opt := ValidateOptions{NoFeats: name == "segmented"}
		if err := Validate(dir, opt, &log); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if !strings.Contains(log.String(), "Successfully validated data-directory "+dir) {
			t.Errorf("%s: %q", name, log.String())
		}
	}
}

// Each case breaks one file of testdata/train (or segmented) and expects the
// error to name the file and line.
func TestValidateErrors(t *testing.T) {
	tests := []struct {
		name  string
		base  string
		files map[string]string // file -> new content ("" removes it)
		opt   ValidateOptions
		want  []string
	}{
		{"no utt2spk", "train", map[string]string{"utt2spk": ""}, ValidateOptions{}, []string{"no such file", "utt2spk"}},
		{"empty spk2utt", "train", map[string]string{"spk2utt": "\x00"}, ValidateOptions{}, []string{"empty file", "spk2utt"}},
		{"utt2spk three fields", "train", map[string]string{"utt2spk": "a-1 a\na-2 a x\n"}, ValidateOptions{}, []string{"utt2spk:2", "wrong format"}},
		{"utt2spk unsorted", "train", map[string]string{"utt2spk": "a-2 a\na-1 a\n"}, ValidateOptions{}, []string{"utt2spk is not sorted or has duplicates: line 2 key \"a-1\" sorts before line 1"}},
		{"utt2spk duplicate", "train", map[string]string{"utt2spk": "a-1 a\na-1 a\n"}, ValidateOptions{}, []string{"line 2 repeats key \"a-1\" of line 1"}},
		{"utt2spk no final newline", "train", map[string]string{"utt2spk": "a-1 a\na-2 a"}, ValidateOptions{}, []string{"utt2spk has invalid newline: line 2"}},
		{"utt2spk not sorted by speaker", "train", map[string]string{"utt2spk": "u1 z\nu2 a\n", "spk2utt": "a u2\nz u1\n"}, ValidateOptions{},
			[]string{"utt2spk:2: utt2spk is not in sorted order when sorted first on speaker-id"}},
		{"spk2utt mismatch", "train", map[string]string{"spk2utt": "a a-1 a-2 a-3 a-4 a-5\nb b-1\nc c-1\nd d-1 d-3 d-2\n"}, ValidateOptions{},
			[]string{"spk2utt and utt2spk do not seem to match", "utt2spk line 9 says \"d-2 d\", spk2utt line 4 gives \"d-3 d\""}},
		{"no text", "train", map[string]string{"text": ""}, ValidateOptions{}, []string{"no such file", "--no-text"}},
		{"text missing an utterance", "train", map[string]string{"text": "a-1 X\na-2 X\na-3 X\na-4 X\na-5 X\nb-1 X\nc-1 X\nd-1 X\nd-3 X\n"}, ValidateOptions{},
			[]string{"utterance lists extracted from utt2spk and text differ", "text line 9 has \"d-3\" where utt2spk line 9 has \"d-2\"", "Lengths are utt2spk=10 versus text=9"}},
		{"text with <s>", "train", map[string]string{"text": "a-1 X <s> Y\n"}, ValidateOptions{}, []string{"text contains illegal symbol <s>", "text:1"}},
		{"text non-printable", "train", map[string]string{"text": "a-1 X\na-2 Y\x01\n"}, ValidateOptions{}, []string{"1 lines with non-printable characters", "text:2"}},
		{"text CR", "train", map[string]string{"text": "a-1 X\r\n"}, ValidateOptions{NonPrint: true}, []string{"text:1: The line for utterance a-1 contains CR"}},
		{"text no-break space", "train", map[string]string{"text": "a-1 X\u00a0Y\n"}, ValidateOptions{}, []string{"text:1", "disallowed Unicode whitespaces"}},
		{"no wav.scp", "train", map[string]string{"wav.scp": ""}, ValidateOptions{}, []string{"wav.scp (if this is by design, specify --no-wav)"}},
		{"wav.scp tilde", "train", map[string]string{"wav.scp": "a-1 ~/a.wav\n"}, ValidateOptions{}, []string{"wav.scp:1: Please do not use tilde"}},
		{"wav.scp extra", "train", map[string]string{"wav.scp": "a-1 x\na-2 x\na-3 x\na-4 x\na-5 x\nb-1 x\nc-1 x\nd-1 x\nd-2 x\nd-3 x\ne-1 x\n"}, ValidateOptions{},
			[]string{"wav.scp line 11 has \"e-1\", past the end of utt2spk"}},
		{"no feats", "train", map[string]string{"feats.scp": ""}, ValidateOptions{}, []string{"feats.scp (if this is by design, specify --no-feats)"}},
		{"cmvn missing a speaker", "train", map[string]string{"cmvn.scp": "a x\nb x\nc x\n"}, ValidateOptions{},
			[]string{"speaker lists extracted from spk2utt and cmvn.scp differ", "cmvn.scp ends after 3, where spk2utt line 4 has \"d\""}},
		{"spk2gender", "train", map[string]string{"spk2gender": "a m\nb x\nc f\nd m\n"}, ValidateOptions{}, []string{"Bad line", "spk2gender:2:b x"}},
		{"utt2dur zero", "train", map[string]string{"utt2dur": "a-1 0\n"}, ValidateOptions{}, []string{"Bad line", "utt2dur:1:a-1 0"}},
		{"utt2num_frames fraction", "train", map[string]string{"utt2num_frames": "a-1 1.5\n"}, ValidateOptions{}, []string{"utt2num_frames:1:a-1 1.5"}},
		{"segments without wav.scp", "segmented", map[string]string{"wav.scp": ""}, ValidateOptions{NoFeats: true}, []string{"segments file exists but no wav.scp"}},
		{"segments end before start", "segmented", map[string]string{"segments": "x-r1-0000 r1 0.00 1.00\nx-r1-0100 r1 2.50 1.00\n"}, ValidateOptions{NoFeats: true},
			[]string{"segments:2", "end time 1.00 is not after start time 2.50"}},
		{"segments negative start", "segmented", map[string]string{"segments": "x-r1-0000 r1 -1 1.00\n"}, ValidateOptions{NoFeats: true},
			[]string{"segments:1", "negative start time"}},
		{"segments bad number", "segmented", map[string]string{"segments": "x-r1-0000 r1 zero 1.00\n"}, ValidateOptions{NoFeats: true},
			[]string{"segments:1", "numbers of seconds"}},
		{"wav.scp recordings differ", "segmented", map[string]string{"wav.scp": "r1 a\nr2 b\n"}, ValidateOptions{NoFeats: true},
			[]string{"recording-ids extracted from segments and wav.scp differ", "wav.scp ends after 2, where segments's recording-id 3 is \"r3\""}},
		{"reco2file_and_channel channel", "segmented", map[string]string{"reco2file_and_channel": "r1 r1 A\nr2 r2 C\nr3 r3 B\n"}, ValidateOptions{NoFeats: true},
			[]string{"reco2file_and_channel:2", "badly formatted reco2file_and_channel"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyDir(t, tc.base)
			for f, content := range tc.files {
				p := filepath.Join(dir, f)
				switch content {
				case "":
					os.Remove(p)
				case "\x00":
					os.WriteFile(p, nil, 0o666)
				default:
					os.WriteFile(p, []byte(content), 0o666)
				}
			}
			err := Validate(dir, tc.opt, nil)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("error %v, want ErrInvalid", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestValidateOptions(t *testing.T) {
	dir := copyDir(t, "train")
	for _, f := range []string{"feats.scp", "text", "wav.scp"} {
		os.Remove(filepath.Join(dir, f))
	}
	if err := Validate(dir, ValidateOptions{NoFeats: true, NoText: true, NoWav: true}, nil); err != nil {
		t.Error(err)
	}
	// One speaker: a warning, not an error. --no-spk-sort skips the speaker-order
	// check, but (as in Kaldi) spk2utt must still expand to utt2spk line for line.
	one := copyDir(t, "train")
	os.WriteFile(filepath.Join(one, "utt2spk"), []byte("u1 z\nu2 z\n"), 0o666)
	os.WriteFile(filepath.Join(one, "spk2utt"), []byte("z u1 u2\n"), 0o666)
	for _, f := range []string{"feats.scp", "text", "wav.scp", "cmvn.scp", "spk2gender", "utt2dur"} {
		os.Remove(filepath.Join(one, f))
	}
	var log strings.Builder
	if err := Validate(one, ValidateOptions{NoFeats: true, NoText: true, NoWav: true}, &log); err != nil || !strings.Contains(log.String(), "you have only one speaker") {
		t.Errorf("%v %q", err, log.String())
	}
	unsorted := copyDir(t, "train")
	os.WriteFile(filepath.Join(unsorted, "utt2spk"), []byte("u1 z\nu2 a\n"), 0o666)
	os.WriteFile(filepath.Join(unsorted, "spk2utt"), []byte("a u2\nz u1\n"), 0o666)
	for _, f := range []string{"feats.scp", "text", "wav.scp", "cmvn.scp", "spk2gender", "utt2dur"} {
		os.Remove(filepath.Join(unsorted, f))
	}
	err := Validate(unsorted, ValidateOptions{NoFeats: true, NoText: true, NoWav: true, NoSpkSort: true}, nil)
	if err == nil || !strings.Contains(err.Error(), "spk2utt and utt2spk do not seem to match") {
		t.Errorf("--no-spk-sort: %v (Kaldi's spk2utt check still wants utt2spk grouped in spk2utt's order)", err)
	}
	if err := Validate(filepath.Join(dir, "nope"), ValidateOptions{}, nil); err == nil || !strings.Contains(err.Error(), "no such directory") {
		t.Error(err)
	}
}

func TestHasWord(t *testing.T) {
	for _, tc := range []struct {
		s, w string
		want bool
	}{{"a <s> b", "<s>", true}, {"<s>", "<s>", true}, {"a<s>", "<s>", false}, {"x #0", "#0", true}, {"x #00", "#0", false}, {"é#0", "#0", false}, {"- #0-", "#0", true}} {
		if hasWord(tc.s, tc.w) != tc.want {
			t.Errorf("hasWord(%q, %q) != %v", tc.s, tc.w, tc.want)
		}
	}
}
