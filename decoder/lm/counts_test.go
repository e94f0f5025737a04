package lm

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestCountText(t *testing.T) {
	c, err := NewCounts(NewVocab("", false), 3, true)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("w ", 700000) // longer than the read buffer
	text := "a b\r\n\n   \n<s> a b </s>\n\ta  b\n" + long + "\nb"
	if err := c.CountText(strings.NewReader(text), "text"); err != nil {
		t.Fatal(err)
	}
	// Blank lines are no sentences; <s> and </s> already there are not added again.
	if c.Sentences != 5 || c.Words != 2+2+2+700000+1 {
		t.Errorf("%d sentences, %d words", c.Sentences, c.Words)
	}
	for _, tc := range []struct {
		ngram string
		want  int64
	}{
		{"<s> a b", 3}, {"a b </s>", 3}, {"<s>", 5}, {"</s>", 5}, {"w w w", 699998}, {"<s> b </s>", 1}, {"<s> <s>", 0},
	} {
		if got := c.Count(strings.Fields(tc.ngram)...); got != tc.want {
			t.Errorf("count(%s) = %d, want %d", tc.ngram, got, tc.want)
		}
	}
}

// The counts file has SRILM's "words<TAB>count" lines.
func TestCountsWrite(t *testing.T) {
	c := countSentences(t, 2, "a b", "a")
	var b bytes.Buffer
	if err := c.Write(&b); err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		got[l] = true
	}
	want := []string{"<s>\t2", "a\t2", "b\t1", "</s>\t2", "<s> a\t2", "a b\t1", "b </s>\t1", "a </s>\t1"}
	if len(got) != len(want) {
		t.Errorf("counts file:\n%s", b.String())
	}
	for _, w := range want {
		if !got[w] {
			t.Errorf("counts file lacks %q:\n%s", w, b.String())
		}
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestCountTextReadError(t *testing.T) {
	c, _ := NewCounts(NewVocab("", false), 2, true)
	err := c.CountText(failingReader{}, "text.gz")
	if !errors.Is(err, ErrInput) || !strings.Contains(err.Error(), "text.gz:1") || !strings.Contains(err.Error(), "disk on fire") {
		t.Errorf("error %v should name text.gz:1 and the cause", err)
	}
	v := NewVocab("", false)
	if err := ReadVocab(failingReader{}, "words.txt", v); err == nil || !strings.Contains(err.Error(), "words.txt:1") {
		t.Errorf("vocabulary read error %v should name words.txt:1", err)
	}
}

// Counting never panics on any text; when a model can be estimated it is
// proper after every history it is asked about.
func FuzzCountText(f *testing.F) {
	f.Add(strings.Join(toyTrigram, "\n"))
	f.Add("<s> </s>\n</s> <s>\n<unk> a\n")
	f.Fuzz(func(t *testing.T, text string) {
		c, _ := NewCounts(NewVocab("", false), 2, true)
		if err := c.CountText(strings.NewReader(text), "fuzz.txt"); err != nil {
			t.Fatal(err)
		}
		m, _, err := c.Estimate(Options{Interpolate: true})
		if err != nil {
			return
		}
		var b bytes.Buffer
		if err := m.WriteARPA(&b); err != nil {
			t.Fatal(err)
		}
		if _, err := ReadARPA(&b, "fuzz.arpa", ReadOptions{}); err != nil {
			t.Fatal(err)
		}
	})
}
