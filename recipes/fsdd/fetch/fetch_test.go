package fetch

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// testOptions bounds every download in these tests to seconds.
func testOptions(url string, sums Sums) Options {
	return Options{URL: url, Sums: sums, ConnectTimeout: 2 * time.Second, StallTimeout: 5 * time.Second, Timeout: 20 * time.Second}
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

func TestFetchFromLocalServer(t *testing.T) {
	files := syntheticCorpus([]string{"alice", "bob"}, 3)
	url := serve(t, makeArchive(t, files), -1)
	parent := t.TempDir()
	dest := filepath.Join(parent, "fsdd")
	var log bytes.Buffer
	o := testOptions(url, sumsOf(files))
	o.Progress = &log
	res, err := Fetch(context.Background(), dest, o)
	if err != nil {
		t.Fatal(err)
	}
	if res.AlreadyPresent || res.Files != len(files) || res.Commit != Commit || res.Bytes == 0 {
		t.Errorf("result %+v, want %d files from commit %s", res, len(files), Commit)
	}
	ents, err := os.ReadDir(filepath.Join(dest, "recordings"))
	if err != nil || len(ents) != len(files) {
		t.Fatalf("recordings/ has %d entries (%v), want %d", len(ents), err, len(files))
	}
	for name, want := range files {
		if got, err := os.ReadFile(filepath.Join(dest, "recordings", name)); err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: %d bytes (%v), want the served %d", name, len(got), err, len(want))
		}
	}
	if src, err := os.ReadFile(filepath.Join(dest, "SOURCE")); err != nil || !strings.Contains(string(src), "CC BY-SA 4.0") || !strings.Contains(string(src), Commit) {
		t.Errorf("SOURCE: %v\n%s", err, src)
	}
	if ents, _ := os.ReadDir(parent); len(ents) != 1 {
		t.Errorf("%s holds %v, want only fsdd", parent, ents)
	}
	if !strings.Contains(log.String(), "LOG (strode fetch-fsdd) 60 recordings verified") {
		t.Errorf("progress log %q", log.String())
	}

	// A second fetch finds the copy and never touches the network.
	res, err = Fetch(context.Background(), dest, testOptions(closedPort(t), sumsOf(files)))
	if err != nil || !res.AlreadyPresent {
		t.Errorf("second fetch: %+v, %v; want AlreadyPresent", res, err)
	}
}

// A recording whose bytes differ from the list fails the whole download,
// names the file, and leaves no cache.
func TestFetchCorruptedFile(t *testing.T) {
	files := syntheticCorpus([]string{"alice"}, 2)
	sums := sumsOf(files)
	bad := "7_alice_1.wav"
	corrupt := bytes.Clone(files[bad])
	corrupt[len(corrupt)/2] ^= 0x40
	files[bad] = corrupt
	url := serve(t, makeArchive(t, files), -1)
	parent := t.TempDir()
	dest := filepath.Join(parent, "fsdd")
	_, err := Fetch(context.Background(), dest, testOptions(url, sums))
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
// the middle of the recordings, and in the gzip trailer after the tar's end
// (which only the gzip checksum and length notice).
func TestFetchTruncatedArchive(t *testing.T) {
	files := syntheticCorpus([]string{"alice"}, 3)
	archive := makeArchive(t, files)
	for _, tc := range []struct {
		name string
		n    int
	}{{"middle", len(archive) * 6 / 10}, {"gzip trailer", len(archive) - 4}, {"first bytes", 5}} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dest := filepath.Join(parent, "fsdd")
			_, err := Fetch(context.Background(), dest, testOptions(serve(t, archive, tc.n), sumsOf(files)))
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

// With nothing listening, Fetch fails at once with the URL and the
// commands to place the files by hand.
func TestFetchUnreachable(t *testing.T) {
	url := closedPort(t)
	parent := t.TempDir()
	dest := filepath.Join(parent, "fsdd")
	start := time.Now()
	_, err := Fetch(context.Background(), dest, testOptions(url, Sums{"0_a_0.wav": {}}))
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v to give up on a closed port", took)
	}
	if err == nil {
		t.Fatal("no error")
	}
	msg := err.Error()
	for _, want := range []string{url, "curl -fL -o fsdd-v1.0.10.tar.gz " + url, "wget", "tar -xzf fsdd-v1.0.10.tar.gz -C " + dest, "sha256sum -c", "--fsdd-dir", "fetch-fsdd --url=file://"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	assertNoCache(t, parent, dest)

	// A parent folder Fetch had to make goes too.
	dest = filepath.Join(parent, "data", "fsdd")
	if _, err := Fetch(context.Background(), dest, testOptions(url, Sums{"0_a_0.wav": {}})); err == nil {
		t.Fatal("no error")
	}
	assertNoCache(t, parent, dest)
}

func TestFetchHTTPError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	parent := t.TempDir()
	dest := filepath.Join(parent, "fsdd")
	_, err := Fetch(context.Background(), dest, testOptions(srv.URL+"/x.tar.gz", Sums{"0_a_0.wav": {}}))
	if err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Fatalf("error %v, want HTTP 404", err)
	}
	assertNoCache(t, parent, dest)
}

// A server that stops sending is given up on after StallTimeout.
func TestFetchStalled(t *testing.T) {
	files := syntheticCorpus([]string{"alice"}, 1)
	archive := makeArchive(t, files)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000000")
		w.Write(archive[:len(archive)/2])
		w.(http.Flusher).Flush()
		select { // hang until the client gives up (or 10 s, so the test always ends)
		case <-r.Context().Done():
		case <-time.After(10 * time.Second):
		}
	}))
	t.Cleanup(srv.Close)
	parent := t.TempDir()
	dest := filepath.Join(parent, "fsdd")
	o := testOptions(srv.URL, sumsOf(files))
	o.StallTimeout = 300 * time.Millisecond
	start := time.Now()
	_, err := Fetch(context.Background(), dest, o)
	if !errors.Is(err, ErrStalled) || !strings.Contains(err.Error(), "no data for") {
		t.Fatalf("error %v, want a stall", err)
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("took %v to notice a stall of 300ms", took)
	}
	assertNoCache(t, parent, dest)
}

// Archives that do not hold exactly the listed recordings are refused.
func TestFetchRefusesOddArchives(t *testing.T) {
	files := syntheticCorpus([]string{"alice"}, 1)
	rec := ArchiveFolder + "/recordings/"
	for _, tc := range []struct {
		name  string
		files map[string][]byte
		extra []entry
		want  error
		text  string
	}{
		{"missing recording", without(files, "3_alice_0.wav"), nil, ErrIncomplete, "1 of the 10 listed recordings are not in"},
		{"duplicate", files, []entry{{tar.Header{Typeflag: tar.TypeReg, Name: rec + "0_alice_0.wav"}, files["0_alice_0.wav"]}}, ErrArchive, "twice"},
		{"path escape", files, []entry{{tar.Header{Typeflag: tar.TypeReg, Name: rec + "../../evil.wav"}, []byte("x")}}, ErrArchive, "not a plain file"},
		{"symlink", files, []entry{{tar.Header{Typeflag: tar.TypeSymlink, Name: rec + "9_alice_9.wav", Linkname: "/etc/passwd"}, nil}}, ErrArchive, "not a plain file"},
		{"subfolder", files, []entry{{tar.Header{Typeflag: tar.TypeDir, Name: rec + "more/", Mode: 0o755}, nil}}, ErrArchive, "not a plain file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			parent := t.TempDir()
			dest := filepath.Join(parent, "fsdd")
			_, err := Fetch(context.Background(), dest, testOptions(serve(t, makeArchive(t, tc.files, tc.extra...), -1), sumsOf(files)))
			if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), tc.text) {
				t.Fatalf("error %v, want %v containing %q", err, tc.want, tc.text)
			}
			assertNoCache(t, parent, dest)
		})
	}
}

// A file of recordings/ the list does not name is left out, and said so;
// the cache holds exactly the listed files.
func TestFetchLeavesOutUnlistedFiles(t *testing.T) {
	files := syntheticCorpus([]string{"alice"}, 1)
	rec := ArchiveFolder + "/recordings/"
	extra := []entry{{tar.Header{Typeflag: tar.TypeReg, Name: rec + "0_eve_0.wav"}, []byte("x")}, {tar.Header{Typeflag: tar.TypeReg, Name: rec + ".gitkeep"}, nil}}
	dest := filepath.Join(t.TempDir(), "fsdd")
	var log bytes.Buffer
	o := testOptions(serve(t, makeArchive(t, files, extra...), -1), sumsOf(files))
	o.Progress = &log
	res, err := Fetch(context.Background(), dest, o)
	if err != nil || res.Files != len(files) || strings.Join(res.Skipped, " ") != "0_eve_0.wav .gitkeep" {
		t.Fatalf("%+v, %v", res, err)
	}
	if ents, _ := os.ReadDir(filepath.Join(dest, "recordings")); len(ents) != len(files) {
		t.Errorf("recordings/ has %d files, want the %d listed", len(ents), len(files))
	}
	if !strings.Contains(log.String(), "WARNING (strode fetch-fsdd) left out 2 file(s)") {
		t.Errorf("log %q", log.String())
	}
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

// A file:// URL or a plain path reads a local archive (the by-hand route).
func TestFetchLocalArchive(t *testing.T) {
	files := syntheticCorpus([]string{"alice"}, 1)
	archive := filepath.Join(t.TempDir(), "fsdd-v1.0.10.tar.gz")
	if err := os.WriteFile(archive, makeArchive(t, files), 0o644); err != nil {
		t.Fatal(err)
	}
	for i, url := range []string{"file://" + archive, archive} {
		dest := filepath.Join(t.TempDir(), "fsdd")
		if res, err := Fetch(context.Background(), dest, testOptions(url, sumsOf(files))); err != nil || res.Files != len(files) {
			t.Errorf("case %d (%s): %+v, %v", i, url, res, err)
		}
	}
	dest := filepath.Join(t.TempDir(), "fsdd")
	if _, err := Fetch(context.Background(), dest, testOptions("file:///nonexistent/fsdd.tar.gz", sumsOf(files))); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing local archive: %v", err)
	}
}

// An empty destination folder is filled; one holding something else is
// refused; the leftovers of a killed run are cleared.
func TestFetchDestination(t *testing.T) {
	files := syntheticCorpus([]string{"alice"}, 1)
	url := serve(t, makeArchive(t, files), -1)
	parent := t.TempDir()
	dest := filepath.Join(parent, "fsdd")
	os.Mkdir(dest, 0o755)
	stale := filepath.Join(parent, ".fsdd.partial-123")
	os.MkdirAll(filepath.Join(stale, "recordings"), 0o755)
	if _, err := Fetch(context.Background(), dest, testOptions(url, sumsOf(files))); err != nil {
		t.Fatalf("into an empty folder: %v", err)
	}
	if _, err := os.Stat(stale); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("stale partial folder survived: %v", err)
	}

	busy := filepath.Join(t.TempDir(), "fsdd")
	os.MkdirAll(busy, 0o755)
	os.WriteFile(filepath.Join(busy, "notes.txt"), []byte("mine"), 0o644)
	if _, err := Fetch(context.Background(), busy, testOptions(url, sumsOf(files))); !errors.Is(err, ErrNotEmpty) {
		t.Errorf("into a folder with other files: %v, want ErrNotEmpty", err)
	}
	if b, _ := os.ReadFile(filepath.Join(busy, "notes.txt")); string(b) != "mine" {
		t.Error("the user's file was touched")
	}
}
