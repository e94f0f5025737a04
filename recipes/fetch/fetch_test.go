package fetch

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testOptions' timeouts are hang guards for downloads from a server on
// 127.0.0.1: no test here waits for one to expire (TestFetchStalled sets
// its own stall), so they are generous, and a busy machine that starves the
// reader for seconds is not taken for a stalled server. Connecting to a
// loopback listener is the kernel's work, so that bound stays short.
func testOptions(url string, sums Sums) Options {
	return Options{URL: url, Sums: sums, ConnectTimeout: 2 * time.Second, StallTimeout: 30 * time.Second, Timeout: 2 * time.Minute}
}

// assertNoCache checks that a failed Fetch left neither dest nor a partial
// folder in parent.
func assertNoCache(t *testing.T, parent, dest string) {
	t.Helper()
	if _, err := os.Stat(dest); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("%s exists after a failed fetch (err %v)", dest, err)
	}
	ents, _ := os.ReadDir(parent)
	for _, e := range ents {
		t.Errorf("left behind in %s: %s", parent, e.Name())
	}
}

// A corpus kept whole (speechocean762's layout) comes down with exactly
// its listed files, in their folders; the README and the litter no list
// names are left out and counted.
func TestFetchTree(t *testing.T) {
	c := treeCorpus()
	files := treeFiles(4, 3)
	url := serve(t, treeArchive(t, "toy762", files), -1)
	parent := t.TempDir()
	dest := filepath.Join(parent, "toy762")
	var log bytes.Buffer
	o := testOptions(url, sumsOf(files))
	o.Progress = &log
	res, err := Fetch(context.Background(), c, dest, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.AlreadyPresent || res.Files != len(files) || res.Bytes == 0 || strings.Join(res.Skipped, " ") != "README.md WAVE/.DS_Store" {
		t.Errorf("result %+v, want %d files and README.md, WAVE/.DS_Store skipped", res, len(files))
	}
	n := 0
	filepath.WalkDir(dest, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(dest, p)
		rel = filepath.ToSlash(rel)
		if rel == "SOURCE" {
			return nil
		}
		n++
		if want, ok := files[rel]; !ok {
			t.Errorf("unlisted file written: %s", rel)
		} else if got, _ := os.ReadFile(p); !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes, want the served %d", rel, len(got), len(want))
		}
		return nil
	})
	if n != len(files) {
		t.Errorf("%d files in %s, want %d", n, dest, len(files))
	}
	if src, err := os.ReadFile(filepath.Join(dest, "SOURCE")); err != nil || !strings.Contains(string(src), url) {
		t.Errorf("SOURCE: %v\n%s", err, src)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Errorf("%s holds %v, want only toy762", parent, ents)
	}
	for _, want := range []string{"LOG (strode fetch-toy762) left out 2 member(s) of toy762/ that SHA256SUMS.upstream does not list",
		"LOG (strode fetch-toy762) 17 files verified against SHA256SUMS.upstream"} {
		if !strings.Contains(log.String(), want) {
			t.Errorf("log lacks %q:\n%s", want, log.String())
		}
	}
	if !c.Has(dest) {
		t.Error("Has is false for the fetched copy")
	}
	// A second fetch finds the copy and never touches the network.
	res, err = Fetch(context.Background(), c, dest, testOptions(closedPort(t), sumsOf(files)))
	if err != nil || !res.AlreadyPresent {
		t.Errorf("second fetch: %+v, %v; want AlreadyPresent", res, err)
	}
}

// The flat layout (FSDD's): only recordings/ is kept, and the WARNING for
// files the list does not name.
func TestFetchFlat(t *testing.T) {
	files := map[string][]byte{"0_a_0.wav": []byte("zero"), "1_a_0.wav": []byte("one")}
	extra := reg("toy-1.0/recordings/2_a_0.wav", []byte("two"))
	dest := filepath.Join(t.TempDir(), "toy")
	var log bytes.Buffer
	o := testOptions(serve(t, flatArchive(t, files, extra), -1), sumsOf(files))
	o.Progress = &log
	res, err := Fetch(context.Background(), flatCorpus(), dest, o)
	if err != nil || res.Files != 2 || res.Commit != "0123abc" {
		t.Fatalf("%+v, %v", res, err)
	}
	if b, err := os.ReadFile(filepath.Join(dest, "recordings", "1_a_0.wav")); err != nil || string(b) != "one" {
		t.Errorf("recordings/1_a_0.wav: %q, %v", b, err)
	}
	if !strings.Contains(log.String(), "WARNING (strode fetch-toy) left out 1 file(s) of recordings/ that SUMS does not list, e.g. 2_a_0.wav") {
		t.Errorf("log %q", log.String())
	}
}

// A file whose bytes differ from the list fails the whole download, names
// the file, and leaves no cache.
func TestFetchCorruptedFile(t *testing.T) {
	files := treeFiles(2, 2)
	sums := sumsOf(files)
	bad := "WAVE/SPEAKER0002/000020001.WAV"
	corrupt := bytes.Clone(files[bad])
	corrupt[len(corrupt)/2] ^= 0x40
	files[bad] = corrupt
	url := serve(t, treeArchive(t, "toy762", files), -1)
	parent := t.TempDir()
	dest := filepath.Join(parent, "toy762")
	_, err := Fetch(context.Background(), treeCorpus(), dest, testOptions(url, sums))
	if !errors.Is(err, ErrChecksum) || !strings.Contains(err.Error(), bad) {
		t.Fatalf("error %v, want a checksum mismatch naming %s", err, bad)
	}
	var fe *Error
	if !errors.As(err, &fe) || fe.URL != url {
		t.Errorf("error %T does not carry the URL", err)
	}
	assertNoCache(t, parent, dest)
}

// A download cut short fails and leaves no cache, wherever it was cut: in
// the middle of the files, and in the gzip trailer after the tar's end
// (which only the gzip checksum and length notice).
func TestFetchTruncatedArchive(t *testing.T) {
	files := treeFiles(3, 3)
	archive := treeArchive(t, "toy762", files)
	for _, tc := range []struct {
		name string
		n    int
	}{{"middle", len(archive) * 6 / 10}, {"gzip trailer", len(archive) - 4}, {"first bytes", 5}} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dest := filepath.Join(parent, "toy762")
			_, err := Fetch(context.Background(), treeCorpus(), dest, testOptions(serve(t, archive, tc.n), sumsOf(files)))
			if err == nil {
				t.Fatal("a truncated archive was accepted")
			}
			if !strings.Contains(err.Error(), "unexpected EOF") {
				t.Errorf("error %v does not say the stream ended early", err)
			}
			assertNoCache(t, parent, dest)
		})
	}
}

// Archives that do not hold exactly the listed files, or hold them in
// forms Fetch does not write, are refused.
func TestFetchRefusesOddArchives(t *testing.T) {
	files := treeFiles(2, 1)
	sums := sumsOf(files)
	lex := "toy762/resource/lexicon.txt"
	for _, tc := range []struct {
		name  string
		files map[string][]byte
		extra []entry
		want  error
		text  string
	}{
		{"missing file", without(files, "train/text"), nil, ErrIncomplete, "1 of the 7 listed files are not in toy762/ (e.g. train/text)"},
		{"duplicate", files, []entry{reg(lex, files["resource/lexicon.txt"])}, ErrArchive, "twice"},
		{"path escape", files, []entry{reg("toy762/WAVE/../../evil", []byte("x"))}, ErrArchive, "unsafe name"},
		{"listed name as a link", without(files, "resource/lexicon.txt"), []entry{{tar.Header{Typeflag: tar.TypeSymlink, Name: lex, Linkname: "/etc/passwd"}, nil}}, ErrArchive, "not a plain file"},
		{"too big", with(files, "test/text", make([]byte, 2000)), nil, ErrArchive, "toy762/test/text is 2000 bytes, more than the 1000"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dest := filepath.Join(parent, "toy762")
			o := testOptions(serve(t, treeArchive(t, "toy762", tc.files, tc.extra...), -1), sums)
			o.MaxFileBytes = 1000
			_, err := Fetch(context.Background(), treeCorpus(), dest, o)
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("error %v, want %v containing %q", err, tc.want, tc.text)
			}
			assertNoCache(t, parent, dest)
		})
	}
	// An unlisted link or folder is left out, never made.
	dest := filepath.Join(t.TempDir(), "toy762")
	link := entry{tar.Header{Typeflag: tar.TypeSymlink, Name: "toy762/WAVE/latest", Linkname: "/etc"}, nil}
	if _, err := Fetch(context.Background(), treeCorpus(), dest, testOptions(serve(t, treeArchive(t, "toy762", files, link), -1), sums)); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dest, "WAVE", "latest")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an unlisted link was made: %v", err)
	}
}

func with(files map[string][]byte, name string, body []byte) map[string][]byte {
	out := without(files, name)
	out[name] = body
	return out
}

func without(files map[string][]byte, name string) map[string][]byte {
	out := map[string][]byte{}
	for n, b := range files {
		if n != name {
			out[n] = b
		}
	}
	return out
}

// With nothing listening, Fetch fails at once with the URL and the
// commands to place the files by hand.
func TestFetchUnreachable(t *testing.T) {
	url := closedPort(t)
	parent := t.TempDir()
	dest := filepath.Join(parent, "toy762")
	start := time.Now()
	_, err := Fetch(context.Background(), treeCorpus(), dest, testOptions(url, Sums{"train/text": {}}))
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v to give up on a closed port", took)
	}
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{"fetching toy762 from " + url, "curl -fL -o toy762.tar.gz " + url, "wget -O toy762.tar.gz " + url,
		"tar -xzf toy762.tar.gz -C " + dest + " --strip-components=1 toy762\n", "(cd " + dest + " && sha256sum -c --quiet <strode repository>/recipes/toy762/SHA256SUMS.upstream)",
		"strode fetch-toy762 --url=file://$PWD/toy762.tar.gz " + dest, "(or pass a copy as --corpus-dir)"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	assertNoCache(t, parent, dest)

	// A parent folder Fetch had to make goes too.
	dest = filepath.Join(parent, "data", "toy762")
	if _, err := Fetch(context.Background(), treeCorpus(), dest, testOptions(url, Sums{"train/text": {}})); err == nil {
		t.Fatal("no error")
	}
	assertNoCache(t, parent, dest)
}

// A server that stops sending is given up on after StallTimeout. The server
// hangs until the client gives up, so only the stall check can end the
// download in time: a client that never noticed would hit the 20 s Timeout,
// whose error ("not finished after") the test refuses. The stall is 1 s, not
// less, because the same value bounds the wait for the response headers
// (ResponseHeaderTimeout), and a loaded machine must not hit that first.
func TestFetchStalled(t *testing.T) {
	files := treeFiles(2, 2)
	archive := treeArchive(t, "toy762", files)
	testOver := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(archive)))
		w.Write(archive[:len(archive)/2])
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-testOver:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(testOver) }) // runs first: srv.Close waits for the handler
	parent := t.TempDir()
	dest := filepath.Join(parent, "toy762")
	o := testOptions(srv.URL, sumsOf(files))
	o.StallTimeout = time.Second
	_, err := Fetch(context.Background(), treeCorpus(), dest, o)
	if !errors.Is(err, ErrStalled) || !strings.Contains(err.Error(), "no data for") {
		t.Fatalf("error %v, want a stall", err)
	}
	assertNoCache(t, parent, dest)
}

// A server that never sends its response headers stalls the download as
// surely as one that stops sending the body: both the transport's header
// timeout and the stall watcher report ErrStalled, so a busy machine that
// lets one fire before the other changes nothing.
func TestFetchNoResponseIsStall(t *testing.T) {
	testOver := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-testOver:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(testOver) })
	parent := t.TempDir()
	dest := filepath.Join(parent, "toy762")
	o := testOptions(srv.URL, sumsOf(treeFiles(1, 1)))
	o.StallTimeout = 200 * time.Millisecond
	_, err := Fetch(context.Background(), treeCorpus(), dest, o)
	if !errors.Is(err, ErrStalled) { // the transport's header timeout or the watcher, whichever comes first
		t.Fatalf("error %v, want a stall", err)
	}
	assertNoCache(t, parent, dest)
}

// A file:// URL or a plain path reads a local archive (the by-hand route);
// an empty destination folder is filled, one holding something else is
// refused, and a killed run's leftovers are cleared.
func TestFetchLocalArchiveAndDestination(t *testing.T) {
	files := treeFiles(1, 2)
	archive := filepath.Join(t.TempDir(), "toy762.tar.gz")
	if err := os.WriteFile(archive, treeArchive(t, "toy762", files), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, url := range []string{"file://" + archive, archive} {
		parent := t.TempDir()
		dest := filepath.Join(parent, "toy762")
		os.Mkdir(dest, 0o755)
		stale := filepath.Join(parent, ".toy762.partial-123")
		os.MkdirAll(filepath.Join(stale, "WAVE"), 0o755)
		if res, err := Fetch(context.Background(), treeCorpus(), dest, testOptions(url, sumsOf(files))); err != nil || res.Files != len(files) {
			t.Errorf("case %d (%s): %+v, %v", i, url, res, err)
		}
		if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("stale partial folder survived: %v", err)
		}
	}
	busy := filepath.Join(t.TempDir(), "toy762")
	os.MkdirAll(busy, 0o755)
	os.WriteFile(filepath.Join(busy, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Fetch(context.Background(), treeCorpus(), busy, testOptions(archive, sumsOf(files))); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("into a folder with other files: %v, want ErrNotEmpty", err)
	}
	if b, _ := os.ReadFile(filepath.Join(busy, "notes.txt")); string(b) != "mine" {
		t.Error("the user's file was touched")
	}
}
