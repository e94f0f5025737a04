package scoring

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func readDetails(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "details", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The hand-made case of testdata/details through the three tools, against
// what Kaldi's perl scripts printed for it (byte for byte).
func TestDetailsGolden(t *testing.T) {
	o := DefaultPerUttOptions()
	o.SpecialSymbol = "***"
	var perUtt bytes.Buffer
	if err := WerPerUttDetails(strings.NewReader(readDetails(t, "align.txt")), "align.txt", &perUtt, o); err != nil {
		t.Fatal(err)
	}
	if want := readDetails(t, "per_utt"); perUtt.String() != want {
		t.Errorf("per_utt:\n%s\nwant\n%s", perUtt.String(), want)
	}
	u, err := ReadUtt2Spk(strings.NewReader(readDetails(t, "utt2spk")), "utt2spk")
	if err != nil {
		t.Fatal(err)
	}
	var perSpk bytes.Buffer
	if err := WerPerSpkDetails(strings.NewReader(perUtt.String()), "per_utt", u, &perSpk, DefaultPerSpkOptions()); err != nil {
		t.Fatal(err)
	}
	if want := readDetails(t, "per_spk"); perSpk.String() != want {
		t.Errorf("per_spk:\n%s\nwant\n%s", perSpk.String(), want)
	}
	var ops bytes.Buffer
	var warnings []string
	if err := WerOpsDetails(strings.NewReader(perUtt.String()), "per_utt", &ops, "***", func(s string) { warnings = append(warnings, s) }); err != nil {
		t.Fatal(err)
	}
	if want := readDetails(t, "ops_unsorted"); ops.String() != want {
		t.Errorf("ops:\n%s\nwant\n%s", ops.String(), want)
	}
	// The utterance empty on both sides has empty ref and hyp lines.
	if len(warnings) != 2 || !strings.Contains(warnings[0], "per_utt line 21") {
		t.Errorf("warnings %q", warnings)
	}
}

// Small cases, each checked against what the perl scripts print.
func TestPerUttCases(t *testing.T) {
	o := DefaultPerUttOptions()
	for _, tc := range []struct{ in, want string }{
		// Kaldi's default special symbol; a pair of two special symbols is a deletion.
		{"u word-A word-A; <eps> word-A; word-B word-B; word-C <eps>; word-D word-D; word-E word-X;\n",
			"u ref  word-A   <eps>  word-B  word-C  word-D  word-E\n" +
				"u hyp  word-A  word-A  word-B   <eps>  word-D  word-X\n" +
				"u op      C       I       C       D       C       S  \n" +
				"u #csid 3 1 1 1\n"},
		{"u <eps> <eps>\n", "u ref  <eps>\nu hyp  <eps>\nu op     D  \nu #csid 0 0 0 1\n"},
		// Blank lines are skipped; an utterance empty on both sides.
		{"\n  \nu\n", "u ref  \nu hyp  \nu op   \nu #csid 0 0 0 0\n"},
	} {
		var b bytes.Buffer
		if err := WerPerUttDetails(strings.NewReader(tc.in), "in", &b, o); err != nil {
			t.Fatalf("%q: %v", tc.in, err)
		}
		if b.String() != tc.want {
			t.Errorf("%q:\n%q\nwant\n%q", tc.in, b.String(), tc.want)
		}
	}
	// Only the lines asked for.
	o.Ref, o.Hyp, o.CSID = false, false, false
	var b bytes.Buffer
	WerPerUttDetails(strings.NewReader("u a b ; c c\n"), "in", &b, o)
	if b.String() != "u op   S  C\n" {
		t.Errorf("ops only: %q", b.String())
	}
	// A pair that is not two words names the file and line.
	for _, in := range []string{"u a b c ; d d\n", "ok a a\nu ; a b\n"} {
		err := WerPerUttDetails(strings.NewReader(in), "ali.txt", &b, DefaultPerUttOptions())
		if !errors.Is(err, ErrDetailsFormat) || !strings.Contains(err.Error(), "ali.txt line") || !strings.Contains(err.Error(), "utterance u") {
			t.Errorf("%q: err %v", in, err)
		}
	}
}

func TestPerSpkCases(t *testing.T) {
	u, err := ReadUtt2Spk(strings.NewReader("u1 s1\nu2 s2\nu3 s1\n"), "utt2spk")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	// s2's only utterance has no reference words: a raw line, no sys line.
	in := "u1 ref  a\nu1 #csid 1 0 0 0\nu2 #csid 0 0 2 0\nu3 #csid 0 1 0 1\n"
	if err := WerPerSpkDetails(strings.NewReader(in), "per_utt", u, &b, DefaultPerSpkOptions()); err != nil {
		t.Fatal(err)
	}
	want := "SPEAKER         id       #SENT      #WORD       Corr        Sub        Ins        Del        Err      S.Err\n" +
		"s1              raw          2          3          1          1          0          1          2          1\n" +
		"s1              sys          2          3      33.33      33.33       0.00      33.33      66.67      50.00\n" +
		"s2              raw          1          0          0          0          2          0          2          1\n" +
		"SUM             raw          3          3          1          1          2          1          4          2\n" +
		"SUM             sys          3          3      33.33      33.33      66.67      33.33     133.33      66.67\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	// No utterances at all: the header and a raw SUM line.
	b.Reset()
	WerPerSpkDetails(strings.NewReader(""), "per_utt", u, &b, PerSpkOptions{SpkFieldWidth: 3, FieldWidth: 2})
	if want := "SPEAKER id  #SENT #WORD Corr Sub Ins Del Err S.Err\nSUM raw  0  0  0  0  0  0  0  0\n"; b.String() != want {
		t.Errorf("empty: %q want %q", b.String(), want)
	}
	for _, tc := range []struct{ utt2spk, perUtt, where string }{
		{"u1 s1\nu2\n", "", "utt2spk line 2"},
		{"u1 s1\nu1 s2\n", "", "utt2spk line 2"},
		{"u1 s1\n", "u1 #csid 1 0 0\n", "per_utt line 1"},
		{"u1 s1\n", "u1 #csid 1 0 x 0\n", "per_utt line 1"},
		{"u1 s1\n", "u1 #csid 1 0 0 0\nu9 #csid 1 0 0 0\n", "per_utt line 2"},
	} {
		u, err := ReadUtt2Spk(strings.NewReader(tc.utt2spk), "utt2spk")
		if err == nil {
			err = WerPerSpkDetails(strings.NewReader(tc.perUtt), "per_utt", u, &b, DefaultPerSpkOptions())
		}
		if !errors.Is(err, ErrDetailsFormat) || !strings.Contains(err.Error(), tc.where) {
			t.Errorf("%q %q: err %v, want it at %s", tc.utt2spk, tc.perUtt, err, tc.where)
		}
	}
}

func TestOpsCases(t *testing.T) {
	// Counts of two digits widen the count column; words over 16
	// characters are written whole past the 16-character column.
	perUtt := ""
	for i := range 12 {
		k := string(rune('a' + i))
		perUtt += "u" + k + " ref  a  bb  ***  abcdefghijklmnopqrstu\nu" + k + " hyp  a  ***  c  abcdefghijklmnopqrstv\n"
	}
	perUtt += "z ref  a\nz hyp  x\n"
	var b bytes.Buffer
	if err := WerOpsDetails(strings.NewReader(perUtt), "per_utt", &b, "***", nil); err != nil {
		t.Fatal(err)
	}
	want := "insertion                  ***                   c    12\n" +
		"correct                      a                   a    12\n" +
		"substitution                 a                   x     1\n" +
		"substitution  abcdefghijklmnopqrstu    abcdefghijklmnopqrstv    12\n" +
		"deletion                    bb                 ***    12\n"
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
	for _, tc := range []struct{ in, where string }{
		{"u ref  a\n", "line 1"},
		{"u hyp  a\n", "line 1"},
		{"u ref  a\nu ref  b\n", "line 2"},
		{"u ref  a  b\nu hyp  a\n", "lines 1 and 2"},
	} {
		err := WerOpsDetails(strings.NewReader(tc.in), "per_utt", &b, "***", nil)
		if !errors.Is(err, ErrDetailsFormat) || !strings.Contains(err.Error(), "per_utt "+tc.where) {
			t.Errorf("%q: err %v", tc.in, err)
		}
	}
}
