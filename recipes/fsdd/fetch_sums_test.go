package fsdd

import (
	"context"
	"crypto/sha256"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/recipes/fetch"
)

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
	sums := fetch.Sums{}
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
	res, err := fetch.Fetch(context.Background(), Corpus, dest, testOptions(serve(t, makeArchive(t, files), -1), sums))
	if err != nil || res.Files != len(files) {
		t.Fatalf("%+v, %v", res, err)
	}
}
