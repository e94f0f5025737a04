package scoring

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func words(s string) []string { return strings.Fields(s) }

func TestEditDistanceSplit(t *testing.T) {
	// Hand-checked against Kaldi's LevenshteinEditDistance tie-breaking.
	for _, tc := range []struct {
		ref, hyp string
		want     Errors
	}{
		{"a b c", "a b c", Errors{}},
		{"a b", "a x b y", Errors{Ins: 2}},     // insertions only
		{"a b c", "b", Errors{Del: 2}},         // deletions only
		{"", "a b", Errors{Ins: 2}},            // empty reference
		{"a b", "", Errors{Del: 2}},            // empty hypothesis
		{"", "", Errors{}},                     //
		{"a b", "x y", Errors{Sub: 2}},         //
		{"a b", "b c", Errors{Ins: 1, Del: 1}}, // a sub pair costs 2 too, but ins/del wins ties
		{"a b c d", "a c d e", Errors{Ins: 1, Del: 1}},
		{"a", "b a", Errors{Ins: 1}},
		{"a", "b c", Errors{Ins: 1, Sub: 1}},
	} {
		got := EditDistance(words(tc.ref), words(tc.hyp))
		if got != tc.want {
			t.Errorf("ref %q hyp %q: got %+v, want %+v", tc.ref, tc.hyp, got, tc.want)
		}
		_, d := Align(words(tc.ref), words(tc.hyp), "***")
		if d != got.Total() {
			t.Errorf("ref %q hyp %q: Align distance %d, EditDistance %d", tc.ref, tc.hyp, d, got.Total())
		}
	}
}

func TestAlignTies(t *testing.T) {
	o := AlignTextOptions{SpecialSymbol: "***", Separator: ";"}
	for _, tc := range []struct{ ref, hyp, want string }{
		{"a b c", "a c", "a a ; b *** ; c c"},
		{"a b", "b c", "a b ; b c"}, // traceback prefers substitution on ties
		{"a", "a b", "a a ; *** b"},
		{"", "x", "*** x"},
		{"x", "", "x ***"},
		{"", "", ""},
	} {
		got, err := o.AlignTokens("k", words(tc.ref), words(tc.hyp))
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("ref %q hyp %q: got %q want %q", tc.ref, tc.hyp, strings.Join(got, " "), tc.want)
		}
	}
	if _, err := o.AlignTokens("k", words("a *** b"), words("a")); !errors.Is(err, ErrSpecialSymbol) {
		t.Errorf("special symbol in text: err %v", err)
	}
}

// score runs the compute-wer loop over two token tables.
func score(t *testing.T, ref, hyp string, mode Mode) (string, error) {
	t.Helper()
	hm, err := ReadTokenTable(strings.NewReader(hyp), "hyp")
	if err != nil {
		t.Fatal(err)
	}
	w := WER{Mode: mode}
	r := NewTokenReader(strings.NewReader(ref), "ref")
	for {
		e, err := r.Next()
		if err != nil {
			break
		}
		h, ok := hm[e.Key]
		if err := w.Add(e.Key, e.Tokens, h, ok); err != nil {
			return "", err
		}
	}
	var b bytes.Buffer
	w.WriteReport(&b)
	return b.String(), nil
}

func TestComputeWERGolden(t *testing.T) {
	for _, tc := range []struct{ ref, hyp, want string }{
		{"test5.text", "test5_1best.txt", "test5_wer.txt"},
		{"ref30.txt", "hyp30_lmwt7_wip0.0.txt", "test5_wer_all30.txt"},
	} {
		ref, _ := os.ReadFile(filepath.Join("testdata", tc.ref))
		hyp, _ := os.ReadFile(filepath.Join("testdata", tc.hyp))
		want, _ := os.ReadFile(filepath.Join("testdata", tc.want))
		got, err := score(t, string(ref), string(hyp), Present)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s vs %s:\ngot\n%s\nwant\n%s", tc.ref, tc.hyp, got, want)
		}
	}
}

// Edge cases, hand-checked against compute-wer's code path.
func TestComputeWEREdgeCases(t *testing.T) {
	ref := "u1 a b c\nu2 d e\nu3\n"
	for _, tc := range []struct {
		name, ref, hyp string
		mode           Mode
		want           string
		wantErr        error
	}{
		{"insertions only", "u1 a b\n", "u1 x a b y z\n", Strict,
			"%WER 150.00 [ 3 / 2, 3 ins, 0 del, 0 sub ]\n%SER 100.00 [ 1 / 1 ]\nScored 1 sentences, 0 not present in hyp.\n", nil},
		{"deletions only", "u1 a b c d\n", "u1 b\n", Strict,
			"%WER 75.00 [ 3 / 4, 0 ins, 3 del, 0 sub ]\n%SER 100.00 [ 1 / 1 ]\nScored 1 sentences, 0 not present in hyp.\n", nil},
		{"empty reference line", ref, "u1 a b c\nu2 d e\nu3 f\n", Strict,
			"%WER 20.00 [ 1 / 5, 1 ins, 0 del, 0 sub ]\n%SER 33.33 [ 1 / 3 ]\nScored 3 sentences, 0 not present in hyp.\n", nil},
		{"only empty references", "u3\n", "u3 f\n", Strict,
			"%WER inf [ 1 / 0, 1 ins, 0 del, 0 sub ]\n%SER 100.00 [ 1 / 1 ]\nScored 1 sentences, 0 not present in hyp.\n", nil},
		{"nothing scored", "u3\n", "u3\n", Strict,
			"%WER -nan [ 0 / 0, 0 ins, 0 del, 0 sub ]\n%SER 0.00 [ 0 / 1 ]\nScored 1 sentences, 0 not present in hyp.\n", nil},
		{"empty hypothesis line", ref, "u1\nu2 d e\nu3\n", Strict,
			"%WER 60.00 [ 3 / 5, 0 ins, 3 del, 0 sub ]\n%SER 33.33 [ 1 / 3 ]\nScored 3 sentences, 0 not present in hyp.\n", nil},
		{"missing, present", ref, "u1 a b c\nu3\n", Present,
			"%WER 0.00 [ 0 / 3, 0 ins, 0 del, 0 sub ] [PARTIAL]\n%SER 0.00 [ 0 / 2 ]\nScored 2 sentences, 1 not present in hyp.\n", nil},
		{"missing, all", ref, "u1 a b c\nu3\n", All,
			"%WER 40.00 [ 2 / 5, 0 ins, 2 del, 0 sub ] [PARTIAL]\n%SER 33.33 [ 1 / 3 ]\nScored 3 sentences, 1 not present in hyp.\n", nil},
		{"missing, strict", ref, "u1 a b c\nu3\n", Strict, "", ErrMissingHypothesis},
		{"only in hypotheses", "u1 a b c\n", "u1 a b c\nu9 x y\n", Strict,
			"%WER 0.00 [ 0 / 3, 0 ins, 0 del, 0 sub ]\n%SER 0.00 [ 0 / 1 ]\nScored 1 sentences, 0 not present in hyp.\n", nil},
	} {
		got, err := score(t, tc.ref, tc.hyp, tc.mode)
		if !errors.Is(err, tc.wantErr) {
			t.Errorf("%s: err %v, want %v", tc.name, err, tc.wantErr)
			continue
		}
		if got != tc.want {
			t.Errorf("%s:\ngot\n%s\nwant\n%s", tc.name, got, tc.want)
		}
	}
}

func TestTokenReaderErrors(t *testing.T) {
	for _, in := range []string{"u1 a\nu2", "u1 a\nu2\rb\n"} {
		r := NewTokenReader(strings.NewReader(in), "hyp.txt")
		var err error
		for err == nil {
			_, err = r.Next()
		}
		if !errors.Is(err, ErrFormat) || !strings.Contains(err.Error(), "hyp.txt line 2") {
			t.Errorf("%q: err %v", in, err)
		}
	}
	if _, err := ReadTokenTable(strings.NewReader("a x\nb y\na z\n"), "h"); !errors.Is(err, ErrDuplicateKey) {
		t.Errorf("duplicate: err %v", err)
	}
	// Blank lines and tabs are tolerated as Kaldi does.
	r := NewTokenReader(strings.NewReader("\n\n  u1\ta  b\t\n"), "t")
	e, err := r.Next()
	if err != nil || e.Key != "u1" || strings.Join(e.Tokens, ",") != "a,b" {
		t.Errorf("got %+v %v", e, err)
	}
}

func FuzzTokenReader(f *testing.F) {
	f.Add([]byte("u1 a b c\nu2\n\nu3 d\n"))
	f.Add([]byte("u1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := NewTokenReader(bytes.NewReader(data), "fuzz")
		for i := 0; i < 1<<16; i++ {
			e, err := r.Next()
			if err != nil {
				return
			}
			if e.Key == "" {
				t.Fatalf("empty key from %q", data)
			}
		}
	})
}

func FuzzEditDistance(f *testing.F) {
	f.Add("a b c", "a x c d")
	f.Fuzz(func(t *testing.T, a, b string) {
		ra, rb := words(a), words(b)
		if len(ra) > 50 || len(rb) > 50 {
			return
		}
		e := EditDistance(ra, rb)
		_, d := Align(ra, rb, "\x00eps")
		if e.Total() != d || e.Ins-e.Del != len(rb)-len(ra) {
			t.Fatalf("%q %q: %+v vs %d", a, b, e, d)
		}
	})
}
