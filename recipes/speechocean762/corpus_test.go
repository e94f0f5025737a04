package speechocean762

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/shareddata"
	"github.com/strode-asr/strode/recipes/fetch"
)

// The committed list: 5,245 WAVs of 250 speakers, the six Kaldi files of
// each half, the lexicon.
func TestUpstreamSums(t *testing.T) {
	s := UpstreamSums()
	if len(s) != 5258 {
		t.Fatalf("%d files, want 5258", len(s))
	}
	wav := regexp.MustCompile(`^WAVE/SPEAKER([0-9]{4})/0([0-9]{4})[0-9]{4}\.WAV$`)
	speakers, other := map[string]bool{}, []string{}
	for _, n := range s.Names() {
		if m := wav.FindStringSubmatch(n); m != nil {
			if m[1] != m[2] {
				t.Errorf("%s: utterance id does not start with 0 and the speaker", n)
			}
			speakers[m[1]] = true
			continue
		}
		other = append(other, n)
	}
	if len(speakers) != 250 {
		t.Errorf("%d speaker folders, want 250", len(speakers))
	}
	want := "resource/lexicon.txt test/spk2age test/spk2gender test/spk2utt test/text test/utt2spk test/wav.scp train/spk2age train/spk2gender train/spk2utt train/text train/utt2spk train/wav.scp"
	if got := strings.Join(other, " "); got != want {
		t.Errorf("other files %s, want %s", got, want)
	}
	for _, m := range Corpus.Markers {
		if _, ok := s[m]; !ok && m != "WAVE" {
			t.Errorf("marker %s is not a listed file", m)
		}
	}
}

// The committed list is the project's copy's SHA256SUMS.upstream.
func TestSumsMatchShared(t *testing.T) {
	shared, err := os.ReadFile(filepath.Join(shareddata.Full(t, "data/speechocean762"), SumsFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(shared, upstreamSums) {
		t.Error("recipes/speechocean762/SHA256SUMS.upstream differs from ../shared/data/speechocean762/SHA256SUMS.upstream")
	}
}

// subsetFiles returns, from the project's FLAC copy, upstream's files for
// the given speakers: their WAVs (decoded and written as the canonical
// 44-byte-header WAV, which is byte for byte upstream's), train/* and
// resource/lexicon.txt; and the committed list cut to those files.
func subsetFiles(t *testing.T, speakers []string) (map[string][]byte, fetch.Sums) {
	t.Helper()
	root := shareddata.Full(t, "data/speechocean762")
	upstream := UpstreamSums()
	files := map[string][]byte{}
	for _, spk := range speakers {
		flacs, _ := filepath.Glob(filepath.Join(root, "WAVE", "SPEAKER"+spk, "*.flac"))
		if len(flacs) == 0 {
			t.Fatalf("no FLAC files for speaker %s", spk)
		}
		for _, p := range flacs {
			f, err := os.Open(p)
			if err != nil {
				t.Fatal(err)
			}
			w, err := features.ReadWave(f)
			f.Close()
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			var b bytes.Buffer
			if _, err := w.Write(&b); err != nil {
				t.Fatal(err)
			}
			files["WAVE/SPEAKER"+spk+"/"+strings.TrimSuffix(filepath.Base(p), ".flac")+".WAV"] = b.Bytes()
		}
	}
	for _, n := range []string{"train/text", "train/wav.scp", "train/utt2spk", "train/spk2utt", "train/spk2gender", "train/spk2age", "resource/lexicon.txt"} {
		b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(n)))
		if err != nil {
			t.Fatal(err)
		}
		files[n] = b
	}
	sums := fetch.Sums{}
	for n := range files {
		want, ok := upstream[n]
		if !ok {
			t.Fatalf("%s is not in the committed list", n)
		}
		sums[n] = want
	}
	return files, sums
}

// subsetArchive builds a tarball laid out as openslr's: speechocean762/
// with files (corrupt, when not "", with one bit flipped) and two files no
// list names.
func subsetArchive(t *testing.T, files map[string][]byte, corrupt string) []byte {
	t.Helper()
	if corrupt != "" {
		files = maps.Clone(files)
		b := bytes.Clone(files[corrupt])
		b[len(b)/2] ^= 1
		files[corrupt] = b
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	gz, _ := gzip.NewWriterLevel(&buf, gzip.BestSpeed)
	tw := tar.NewWriter(gz)
	put := func(name string, body []byte, dir bool) {
		h := &tar.Header{Name: "speechocean762/" + name, Mode: 0o644, Size: int64(len(body)), Typeflag: tar.TypeReg, ModTime: time.Date(2021, 4, 1, 0, 0, 0, 0, time.UTC)}
		if dir {
			h.Typeflag, h.Mode, h.Size = tar.TypeDir, 0o755, 0
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		tw.Write(body)
	}
	put("", nil, true)
	put("README.md", []byte("# speechocean762\n"), false)
	put("resource/scores.json", []byte("{}\n"), false)
	for _, n := range names {
		put(n, files[n], false)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	gz.Close()
	return buf.Bytes()
}

// serveArchive serves body (or its first n bytes, n >= 0) on 127.0.0.1.
func serveArchive(t *testing.T, body []byte, n int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(body)))
		if n >= 0 {
			w.Write(body[:n])
			return
		}
		w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/resources/101/speechocean762.tar.gz"
}

// quickOptions' timeouts are hang guards for downloads from a server on
// 127.0.0.1: no test here waits for one to expire, so they are generous,
// and a busy machine that starves the reader for seconds is not taken for a
// stalled server. Connecting to a loopback listener is the kernel's work, so
// that bound stays short.
func quickOptions(url string, sums fetch.Sums) fetch.Options {
	return fetch.Options{URL: url, Sums: sums, ConnectTimeout: 2 * time.Second, StallTimeout: 30 * time.Second, Timeout: 2 * time.Minute}
}

func assertNothingIn(t *testing.T, parent string) {
	t.Helper()
	ents, _ := os.ReadDir(parent)
	for _, e := range ents {
		t.Errorf("left behind in %s: %s", parent, e.Name())
	}
}

// The download path, on a tarball of a few speakers of the project's copy
// served on 127.0.0.1: the WAVs made from the FLAC copy match upstream's
// SHA-256 exactly; a corrupted file or a truncated archive fails with a
// clear error and leaves no cache; the copy it makes is found again, and
// data prep on it names the first utterance whose audio is not there.
func TestFetchSubset(t *testing.T) {
	speakers := []string{"0001", "0048"}
	if !testing.Short() {
		speakers = append(speakers, "1027", "5418")
	}
	files, sums := subsetFiles(t, speakers)
	archive := subsetArchive(t, files, "")
	parent := t.TempDir()
	dest := filepath.Join(parent, "speechocean762")
	var log bytes.Buffer
	o := quickOptions(serveArchive(t, archive, -1), sums)
	o.Progress = &log
	res, err := fetch.Fetch(context.Background(), Corpus, dest, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Files != len(sums) || strings.Join(res.Skipped, " ") != "README.md resource/scores.json" {
		t.Errorf("%+v: want %d files, README.md and scores.json left out", res, len(sums))
	}
	if !Corpus.Has(dest) || !strings.Contains(log.String(), fmt.Sprintf("LOG (strode fetch-speechocean762) %d files verified against SHA256SUMS.upstream", len(sums))) {
		t.Errorf("log:\n%s", log.String())
	}
	if src, _ := os.ReadFile(filepath.Join(dest, "SOURCE")); !strings.Contains(string(src), "Interspeech 2021") {
		t.Errorf("SOURCE:\n%s", src)
	}
	loc, err := fetch.Locate(context.Background(), Corpus, "", "", dest, quickOptions("http://127.0.0.1:1/x.tar.gz", sums))
	if err != nil || loc.Where != fetch.FromCache {
		t.Errorf("Locate after the download: %+v, %v", loc, err)
	}
	// The subset's train/ names all 125 speakers; 0005's audio is absent.
	if _, err := Prepare(dest, filepath.Join(t.TempDir(), "data"), Options{}, nil); !errors.Is(err, ErrCorpus) || !strings.Contains(err.Error(), "train/wav.scp:21: utterance 000050003: no audio file") {
		t.Errorf("data prep on the subset: %v", err)
	}

	t.Run("corrupted file", func(t *testing.T) {
		bad := "WAVE/SPEAKER0048/" + firstUtterance(t, sums, "0048") + ".WAV"
		archive := subsetArchive(t, files, bad)
		parent := t.TempDir()
		_, err := fetch.Fetch(context.Background(), Corpus, filepath.Join(parent, "speechocean762"), quickOptions(serveArchive(t, archive, -1), sums))
		if !errors.Is(err, fetch.ErrChecksum) || !strings.Contains(err.Error(), bad) || !strings.Contains(err.Error(), "sha256sum -c") {
			t.Errorf("error %v, want a checksum mismatch naming %s and the by-hand steps", err, bad)
		}
		assertNothingIn(t, parent)
	})
	t.Run("truncated archive", func(t *testing.T) {
		for _, n := range []int{len(archive) / 3, len(archive) - 8} {
			parent := t.TempDir()
			_, err := fetch.Fetch(context.Background(), Corpus, filepath.Join(parent, "speechocean762"), quickOptions(serveArchive(t, archive, n), sums))
			if err == nil || !strings.Contains(err.Error(), "truncated archive") {
				t.Errorf("cut at %d of %d: %v, want a truncated archive", n, len(archive), err)
			}
			assertNothingIn(t, parent)
		}
	})
}

func firstUtterance(t *testing.T, sums fetch.Sums, spk string) string {
	for _, n := range sums.Names() {
		if strings.HasPrefix(n, "WAVE/SPEAKER"+spk+"/") {
			return strings.TrimSuffix(filepath.Base(n), ".WAV")
		}
	}
	t.Fatalf("no WAV of %s", spk)
	return ""
}

// Offline, the lookup stops at once with the URL and the by-hand steps.
func TestFetchOffline(t *testing.T) {
	parent := t.TempDir()
	dest := filepath.Join(parent, "speechocean762")
	start := time.Now()
	_, err := fetch.Locate(context.Background(), Corpus, "", filepath.Join(parent, "no-shared"), dest, quickOptions("http://127.0.0.1:1/resources/101/speechocean762.tar.gz", nil))
	if time.Since(start) > 5*time.Second {
		t.Errorf("took %v to give up", time.Since(start))
	}
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"fetching speechocean762 from http://127.0.0.1:1/", "curl -fL -o speechocean762.tar.gz http://127.0.0.1:1/resources/101/speechocean762.tar.gz",
		"tar -xzf speechocean762.tar.gz -C " + dest + " --strip-components=1 speechocean762\n",
		"sha256sum -c --quiet <strode repository>/recipes/speechocean762/SHA256SUMS.upstream", "strode fetch-speechocean762 --url=file://$PWD/speechocean762.tar.gz"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("message lacks %q:\n%v", want, err)
		}
	}
	assertNothingIn(t, parent)
}
