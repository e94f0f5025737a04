package fsdd

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

	"github.com/strode-asr/strode/recipes/fetch"
)

// testOptions' timeouts are hang guards for downloads from a server on
// 127.0.0.1: no test here waits for one to expire, so they are generous,
// and a busy machine that starves the reader for seconds is not taken for a
// stalled server. Connecting to a loopback listener is the kernel's work, so
// that bound stays short.
func testOptions(url string, sums fetch.Sums) fetch.Options {
	return fetch.Options{URL: url, Sums: sums, ConnectTimeout: 2 * time.Second, StallTimeout: 30 * time.Second, Timeout: 2 * time.Minute}
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
	res, err := fetch.Fetch(context.Background(), Corpus, dest, o)
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
	res, err = fetch.Fetch(context.Background(), Corpus, dest, testOptions(closedPort(t), sumsOf(files)))
	if err != nil || !res.AlreadyPresent {
		t.Errorf("second fetch: %+v, %v; want AlreadyPresent", res, err)
	}
}

func TestFetchHTTPError(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(srv.Close)
	parent := t.TempDir()
	dest := filepath.Join(parent, "fsdd")
	_, err := fetch.Fetch(context.Background(), Corpus, dest, testOptions(srv.URL+"/x.tar.gz", fetch.Sums{"0_a_0.wav": {}}))
	if err == nil || !strings.Contains(err.Error(), "HTTP 404") {
		t.Fatalf("error %v, want HTTP 404", err)
	}
	assertNoCache(t, parent, dest)
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
	res, err := fetch.Fetch(context.Background(), Corpus, dest, o)
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
