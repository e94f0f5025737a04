package mkgraph

import (
	"errors"
	"strings"
	"testing"
)

func TestParseLexiconErrors(t *testing.T) {
	for _, tc := range []struct {
		text  string
		probs bool
		want  string
	}{
		{"a\n", false, "lex:1: word \"a\" has an empty pronunciation"},
		{"a 1.0 A\nb 0 B\n", true, "lex:2: bad pronunciation probability"},
		{"a 1.5 A\n", true, "lex:1: bad pronunciation probability"},
		{"\n\n", false, "empty lexicon"},
	} {
		_, err := ParseLexicon(strings.NewReader(tc.text), "lex", tc.probs)
		if err == nil || !errors.Is(err, ErrDict) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: error %v, want %q", tc.text, err, tc.want)
		}
	}
}

// A lexicon whose words need disambiguation symbols: homophones get #1
// and #2, a pronunciation that is a prefix of another gets #1, and
// L_disambig's silence arc uses the next one.
func TestPrepareLangDisambig(t *testing.T) {
	lex, err := ParseLexicon(strings.NewReader("<SIL> SIL\nred R EH D\nread R EH D\nre R EH\nmore M AO R\n"), "lex", false)
	if err != nil {
		t.Fatal(err)
	}
	d := &Dict{Lexicon: lex, SilencePhones: [][]string{{"SIL"}}, OptionalSilence: "SIL",
		NonsilencePhones: [][]string{{"R"}, {"EH"}, {"D"}, {"M"}, {"AO"}}}
	lang, err := PrepareLang(d, "<SIL>", positionIndependent())
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"SIL"}, {"R", "EH", "D", "#1"}, {"R", "EH", "D", "#2"}, {"R", "EH", "#1"}, {"M", "AO", "R"}}
	for i, p := range lang.lexDisambig {
		if strings.Join(p, " ") != strings.Join(want[i], " ") {
			t.Errorf("entry %d: %v, want %v", i, p, want[i])
		}
	}
	if len(lang.PhoneDisambig) != 4 { // #0..#3: #3 for silence
		t.Errorf("%d disambiguation symbols, want 4 (#0..#3)", len(lang.PhoneDisambig))
	}
}

func FuzzParseLexicon(f *testing.F) {
	f.Add([]byte("a 1.0 A B\nb 0.5 C\n"), true)
	f.Add([]byte("<SIL> SIL\nx A\n"), false)
	f.Fuzz(func(t *testing.T, b []byte, probs bool) {
		lex, err := ParseLexicon(strings.NewReader(string(b)), "fuzz", probs)
		if err != nil {
			if !errors.Is(err, ErrDict) {
				t.Fatalf("error does not wrap ErrDict: %v", err)
			}
			return
		}
		for _, e := range lex {
			if len(e.Phones) == 0 || !(e.Prob > 0 && e.Prob <= 1) {
				t.Fatalf("bad entry %+v", e)
			}
		}
	})
}
