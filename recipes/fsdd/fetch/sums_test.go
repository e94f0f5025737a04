package fetch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

func TestParseSums(t *testing.T) {
	h := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name, in string
		want     int    // files, when ok
		err      string // part of the error, when not
	}{
		{"two files", h + "  0_a_0.wav\n" + h + "  1_a_0.wav\n", 2, ""},
		{"binary marker, CRLF, blank lines", h + " *0_a_0.wav\r\n\n", 1, ""},
		{"empty", "\n\n", 0, "lists no files"},
		{"short line", h + " x\n", 0, ":1: want"},
		{"bad hex", strings.Repeat("zz", 32) + "  a.wav\n", 0, "invalid byte"},
		{"folder", h + "  a/b.wav\n", 0, "not a plain file name"},
		{"dotdot", h + "  ..\n", 0, "not a plain file name"},
		{"twice", h + "  a.wav\n" + h + "  a.wav\n", 0, "listed twice"},
		{"one space", h + " a.wav\n", 0, "want"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseSums(strings.NewReader(tc.in), "list.txt")
			if tc.err == "" {
				if err != nil || len(s) != tc.want {
					t.Errorf("got %d files, %v; want %d", len(s), err, tc.want)
				}
				return
			}
			if !errors.Is(err, ErrBadSums) || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "list.txt") {
				t.Errorf("error %v, want ErrBadSums with %q naming list.txt", err, tc.err)
			}
		})
	}
}

// The committed list is upstream v1.0.10's: 3,000 recordings, six speakers
// with 500 each, FSDD's digit_speaker_take.wav names.
func TestUpstreamSums(t *testing.T) {
	s := UpstreamSums()
	if len(s) != 3000 {
		t.Fatalf("%d files, want 3000", len(s))
	}
	name := regexp.MustCompile(`^([0-9])_([a-z]+)_([0-9]|[1-4][0-9])\.wav$`)
	perSpeaker := map[string]int{}
	for _, n := range s.Names() {
		m := name.FindStringSubmatch(n)
		if m == nil {
			t.Fatalf("%q is not an FSDD name", n)
		}
		perSpeaker[m[2]]++
	}
	if len(perSpeaker) != 6 {
		t.Errorf("speakers %v, want 6", perSpeaker)
	}
	for spk, n := range perSpeaker {
		if n != 500 {
			t.Errorf("%s has %d recordings, want 500", spk, n)
		}
	}
}

// The project's copy of FSDD in ../shared agrees with the committed list,
// and an archive built from it (the files it has, with upstream's layout)
// goes through the download path. The copy lacks one speaker on purpose, so
// the list is cut to the files present. In -short mode, 200 of them.
func TestFetchSharedRecordings(t *testing.T) {
	dir := filepath.Join(shareddata.Dir(t, "data/fsdd"), "recordings")
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if testing.Short() && len(ents) > 200 {
		ents = ents[:200]
	}
	upstream := UpstreamSums()
	files := map[string][]byte{}
	sums := Sums{}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		want, ok := upstream[e.Name()]
		if !ok {
			t.Fatalf("../shared has %s, which upstream v1.0.10 does not list", e.Name())
		}
		if sha256.Sum256(b) != want {
			t.Fatalf("../shared's %s differs from upstream v1.0.10's", e.Name())
		}
		files[e.Name()], sums[e.Name()] = b, want
	}
	dest := filepath.Join(t.TempDir(), "fsdd")
	res, err := Fetch(context.Background(), dest, testOptions(serve(t, makeArchive(t, files), -1), sums))
	if err != nil || res.Files != len(files) {
		t.Fatalf("%+v, %v", res, err)
	}
}

func FuzzParseSums(f *testing.F) {
	f.Add([]byte(strings.Repeat("ab", 32) + "  0_a_0.wav\n"))
	f.Add(upstreamSums[:500])
	f.Fuzz(func(t *testing.T, in []byte) {
		s, err := ParseSums(bytes.NewReader(in), "fuzz")
		if err == nil {
			for name := range s {
				if !plainName(name) {
					t.Errorf("accepted %q", name)
				}
			}
		}
	})
}
