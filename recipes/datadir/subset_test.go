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

// perturbedDir writes a 3-way speed-perturbed copy of testdata/train's
// utt2spk (speakers a–d, 10 utterances) as perturb_data_dir_speed_3way.sh
// makes it: sp0.9- and sp1.1- on utterances and speakers, utt2uniq mapping
// each copy to its original, every file sorted. withUniq false leaves
// utt2uniq out.
func perturbedDir(t *testing.T, withUniq bool) string {
	t.Helper()
	orig := strings.Fields(readFile(t, filepath.Join("testdata", "train", "utt2spk")))
	var u2s, uniq []string
	for _, p := range []string{"sp0.9-", "sp1.1-", ""} {
		for i := 0; i < len(orig); i += 2 {
			u2s = append(u2s, p+orig[i]+" "+p+orig[i+1])
			uniq = append(uniq, p+orig[i]+" "+orig[i])
		}
	}
	sortStrings(u2s)
	sortStrings(uniq)
	dir := t.TempDir()
	write := func(name string, lines []string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("utt2spk", u2s)
	if withUniq {
		write("utt2uniq", uniq)
	}
	var s2u strings.Builder
	if err := Utt2SpkToSpk2Utt(strings.NewReader(strings.Join(u2s, "\n")+"\n"), &s2u, "utt2spk"); err != nil {
		t.Fatal(err)
	}
	write("spk2utt", strings.Split(strings.TrimSpace(s2u.String()), "\n"))
	return dir
}

// origOf is the original of a perturbed utterance or speaker id.
func origOf(id string) string {
	for _, p := range []string{"sp0.9-", "sp1.1-"} {
		id = strings.TrimPrefix(id, p)
	}
	return id
}

// With utt2uniq, the copies of an utterance (sp0.9-x, sp1.1-x, x) never
// straddle the training/cross-validation split, by utterances or by
// speakers; without it, the utterance split of the same dir does straddle.
func TestSubsetTrCvKeepsUtt2UniqTogether(t *testing.T) {
	split := func(src string, opt TrCvOptions) (tr, cv map[string]string) {
		t.Helper()
		base := t.TempDir()
		trDir, cvDir := filepath.Join(base, "tr"), filepath.Join(base, "cv")
		if err := SubsetTrCv(src, trDir, cvDir, opt, nil); err != nil {
			t.Fatal(err)
		}
		for _, d := range []string{trDir, cvDir} {
			if err := Validate(d, ValidateOptions{NoFeats: true, NoText: true, NoWav: true}, nil); err != nil {
				t.Errorf("%s: %v", d, err)
			}
		}
		read := func(d string) map[string]string {
			m := map[string]string{}
			f := strings.Fields(readFile(t, filepath.Join(d, "utt2spk")))
			for i := 0; i < len(f); i += 2 {
				m[f[i]] = f[i+1]
			}
			return m
		}
		return read(trDir), read(cvDir)
	}
	straddling := func(tr, cv map[string]string) []string {
		inTr := map[string]bool{}
		for u := range tr {
			inTr[origOf(u)] = true
		}
		var both []string
		for u := range cv {
			if inTr[origOf(u)] {
				both = append(both, u)
			}
		}
		return both
	}
	byUtt := DefaultTrCvOptions()
	byUtt.CvUttPercent = 20
	bySpk := DefaultTrCvOptions()
	bySpk.CvSpkPercent = 50

	// Without utt2uniq the last 20% of the sorted utt2spk are originals
	// (d-1 … d-3) whose copies train: the leak this guards against.
	tr, cv := split(perturbedDir(t, false), byUtt)
	if len(straddling(tr, cv)) == 0 {
		t.Fatalf("without utt2uniq: expected copies on both sides, got cv %v", cv)
	}

	src := perturbedDir(t, true)
	tr, cv = split(src, byUtt)
	if b := straddling(tr, cv); len(b) > 0 {
		t.Errorf("by utterances: %v in cv have copies in tr", b)
	}
	// 20% of the 10 groups, cut back to a speaker change: d's 3 groups,
	// with their 9 copies.
	if len(cv) != 9 || len(tr) != 21 || cv["sp1.1-d-2"] != "sp1.1-d" || cv["d-3"] != "d" {
		t.Errorf("by utterances: %d in cv, %d in tr; cv %v", len(cv), len(tr), cv)
	}

	tr, cv = split(src, bySpk)
	if b := straddling(tr, cv); len(b) > 0 {
		t.Errorf("by speakers: %v in cv have copies in tr", b)
	}
	cvSpk := map[string]bool{}
	for _, s := range cv {
		cvSpk[s] = true
	}
	if len(cvSpk) != 6 { // 50% of the 4 speaker groups, 3 copies each
		t.Errorf("by speakers: cv speakers %v, want 2 of the 4 groups of 3", cvSpk)
	}
	tr2, cv2 := split(src, bySpk)
	if len(tr2) != len(tr) || len(cv2) != len(cv) {
		t.Error("by speakers: the same seed gave different splits")
	}
	for u := range cv {
		if _, ok := cv2[u]; !ok {
			t.Error("by speakers: the same seed gave different splits")
			break
		}
	}
}
