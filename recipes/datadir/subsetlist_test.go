package datadir

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSubset(t *testing.T) {
	src := t.TempDir()
	files := map[string]string{
		"utt2spk":   "a-1 a\na-2 a\nb-1 b\nc-1 c\n",
		"spk2utt":   "a a-1 a-2\nb b-1\nc c-1\n",
		"text":      "a-1 one\na-2 two\nb-1 three\nc-1 four\n",
		"feats.scp": "a-1 f:1\na-2 f:2\nb-1 f:3\nc-1 f:4\n",
		"cmvn.scp":  "a c:1\nb c:2\nc c:3\n",
	}
	for n, s := range files {
		if err := os.WriteFile(filepath.Join(src, n), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	list := filepath.Join(t.TempDir(), "list")
	for _, c := range []struct {
		name, list string
		byUtt      bool
		want       map[string]string // file -> contents
		err        string
	}{
		{"utterances", "a-2\nc-1 extra fields\nzzz\n", true, map[string]string{
			"utt2spk": "a-2 a\nc-1 c\n", "spk2utt": "a a-2\nc c-1\n", "text": "a-2 two\nc-1 four\n", "cmvn.scp": "a c:1\nc c:3\n"}, ""},
		{"speakers", "b\n", false, map[string]string{"utt2spk": "b-1 b\n", "feats.scp": "b-1 f:3\n"}, ""},
		{"nothing listed is there", "zzz\n", true, nil, "no utterance"},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.WriteFile(list, []byte(c.list), 0o644)
			dst := filepath.Join(t.TempDir(), "out")
			err := Subset(src, dst, list, c.byUtt, nil)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("error %v, want %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			for n, want := range c.want {
				b, err := os.ReadFile(filepath.Join(dst, n))
				if err != nil || string(b) != want {
					t.Errorf("%s = %q (%v), want %q", n, b, err, want)
				}
			}
		})
	}
}
