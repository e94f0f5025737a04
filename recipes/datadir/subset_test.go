package datadir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSubsetTrCvByUtterance(t *testing.T) {
	src := copyDir(t, "train")
	base := t.TempDir()
	tr, cv := filepath.Join(base, "tr"), filepath.Join(base, "cv")
	// 20% of 10 utterances: the last 2 would split speaker d (3 utterances);
	// the boundary moves back to d's first utterance.
	opt := DefaultTrCvOptions()
	opt.CvUttPercent = 20
	var log strings.Builder
	if err := SubsetTrCv(src, tr, cv, opt, &log); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(cv, "utt2spk")); got != "d-1 d\nd-2 d\nd-3 d\n" {
		t.Errorf("cv utt2spk %q", got)
	}
	if got := readFile(t, filepath.Join(tr, "spk2utt")); got != "a a-1 a-2 a-3 a-4 a-5\nb b-1\nc c-1\n" {
		t.Errorf("tr spk2utt %q", got)
	}
	if got := readFile(t, filepath.Join(cv, "cmvn.scp")); got != "d cmvn.ark:40\n" {
		t.Errorf("cv cmvn.scp %q", got)
	}
	for _, d := range []string{tr, cv} {
		if err := Validate(d, ValidateOptions{}, nil); err != nil {
			t.Errorf("%s: %v", d, err)
		}
	}
	if !strings.Contains(log.String(), "reducing #utt from 10 to 7") {
		t.Errorf("log %q", log.String())
	}
}

func TestSubsetTrCvBySpeaker(t *testing.T) {
	src := copyDir(t, "train")
	split := func(seed uint64) (string, string) {
		base := t.TempDir()
		tr, cv := filepath.Join(base, "tr"), filepath.Join(base, "cv")
		opt := DefaultTrCvOptions()
		opt.CvSpkPercent, opt.Seed = 50, seed
		if err := SubsetTrCv(src, tr, cv, opt, nil); err != nil {
			t.Fatal(err)
		}
		return readFile(t, filepath.Join(tr, "spk2utt")), readFile(t, filepath.Join(cv, "spk2utt"))
	}
	tr1, cv1 := split(777)
	tr2, cv2 := split(777)
	if tr1 != tr2 || cv1 != cv2 {
		t.Error("the same seed gave different splits")
	}
	if n := strings.Count(cv1, "\n"); n != 2 {
		t.Errorf("cv has %d speakers, want 2 of 4:\n%s", n, cv1)
	}
	for _, l := range strings.Split(strings.TrimSpace(cv1), "\n") {
		if strings.Contains(tr1, strings.Fields(l)[0]+" ") {
			t.Errorf("speaker %s in both sets", strings.Fields(l)[0])
		}
	}
	differs := false
	for seed := uint64(1); seed < 20 && !differs; seed++ {
		_, cv := split(seed)
		differs = cv != cv1
	}
	if !differs {
		t.Error("19 other seeds all gave the same split")
	}
	// 10% of 4 speakers is none: refused rather than an empty set.
	opt := DefaultTrCvOptions()
	opt.CvSpkPercent = 10
	base := t.TempDir()
	if err := SubsetTrCv(src, filepath.Join(base, "tr"), filepath.Join(base, "cv"), opt, nil); err == nil || !strings.Contains(err.Error(), "would be empty") {
		t.Errorf("%v", err)
	}
	if err := SubsetTrCv(base, filepath.Join(base, "tr"), filepath.Join(base, "cv"), opt, nil); err == nil || !strings.Contains(err.Error(), "utt2spk") {
		t.Errorf("%v", err)
	}
}

func TestUtt2SpkToSpk2Utt(t *testing.T) {
	var out strings.Builder
	if err := Utt2SpkToSpk2Utt(strings.NewReader("u1 s2\nu2 s1\nu3   s2\n"), &out, "-"); err != nil {
		t.Fatal(err)
	}
	if out.String() != "s2 u1 u3\ns1 u2\n" {
		t.Errorf("%q", out.String())
	}
	err := Utt2SpkToSpk2Utt(strings.NewReader("u1 s2\nu2\n"), &out, "-")
	if err == nil || !strings.Contains(err.Error(), "Invalid line in utt2spk file -:2") {
		t.Errorf("%v", err)
	}
	_ = os.Stdout
}
