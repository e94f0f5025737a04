package fetch

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

func TestParseSums(t *testing.T) {
	h := strings.Repeat("ab", 32)
	for _, tc := range []struct {
		name, in string
		flat     bool
		want     int    // files, when ok
		err      string // part of the error, when not
	}{
		{"flat: two files", h + "  0_a_0.wav\n" + h + "  1_a_0.wav\n", true, 2, ""},
		{"flat: binary marker, CRLF, blank lines", h + " *0_a_0.wav\r\n\n", true, 1, ""},
		{"flat: folder", h + "  a/b.wav\n", true, 0, "not a plain file name"},
		{"flat: dotdot", h + "  ..\n", true, 0, "not a plain file name"},
		{"tree: paths", h + "  WAVE/SPEAKER0001/1.WAV\n" + h + "  train/text\n", false, 2, ""},
		{"tree: dotdot part", h + "  WAVE/../x\n", false, 0, "not a relative path"},
		{"tree: absolute", h + "  /etc/passwd\n", false, 0, "not a relative path"},
		{"tree: empty part", h + "  a//b\n", false, 0, "not a relative path"},
		{"tree: trailing slash", h + "  a/\n", false, 0, "not a relative path"},
		{"tree: backslash escape", h + "  a\\\\b\n", false, 0, "not a relative path"},
		{"tree: file and folder", h + "  a/b\n" + h + "  a\n", false, 0, "as a file and as the folder"},
		{"empty", "\n\n", false, 0, "lists no files"},
		{"short line", h + " x\n", false, 0, ":1: want"},
		{"bad hex", strings.Repeat("zz", 32) + "  a.wav\n", false, 0, "invalid byte"},
		{"twice", h + "  a.wav\n" + h + "  a.wav\n", false, 0, "listed twice"},
		{"one space", h + " a.wav\n", false, 0, "want"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := ParseSums(strings.NewReader(tc.in), "list.txt", tc.flat)
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

// Locate takes --corpus-dir, then ../shared/data/NAME, then the cache, and
// downloads only when none holds a copy.
func TestLocate(t *testing.T) {
	c := treeCorpus()
	files := treeFiles(2, 1)
	root := t.TempDir()
	mk := func(name string) string {
		dir := filepath.Join(root, name)
		for _, m := range c.Markers {
			if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, m)), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, m), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return dir
	}
	mine, shared, cache := mk("mine"), mk("shared"), mk("cache")
	offline := testOptions(closedPort(t), sumsOf(files))
	ctx := context.Background()
	for _, tc := range []struct {
		name                   string
		corpusDir, shared, cch string
		want                   string
		where                  Where
	}{
		{"corpus dir first", mine, shared, cache, mine, FromCorpusDir},
		{"then shared", "", shared, cache, shared, FromShared},
		{"then the cache", "", filepath.Join(root, "absent"), cache, cache, FromCache},
		{"no shared folder given", "", "", cache, cache, FromCache},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Locate(ctx, c, tc.corpusDir, tc.shared, tc.cch, offline)
			if err != nil || got.Dir != tc.want || got.Where != tc.where {
				t.Errorf("%+v, %v; want %s from %s", got, err, tc.want, tc.where)
			}
		})
	}
	// A --corpus-dir without the corpus is an error, never a download.
	if _, err := Locate(ctx, c, filepath.Join(root, "typo"), shared, cache, offline); !errors.Is(err, ErrNoCorpus) || !strings.Contains(err.Error(), "typo lacks WAVE, train/text, resource/lexicon.txt") {
		t.Errorf("missing --corpus-dir: %v", err)
	}
	// Nothing anywhere: a download into the cache.
	dl := filepath.Join(root, "data", "toy762")
	got, err := Locate(ctx, c, "", filepath.Join(root, "absent"), dl, testOptions(serve(t, treeArchive(t, "toy762", files), -1), sumsOf(files)))
	if err != nil || got.Dir != dl || got.Where != FromDownload || got.Fetch == nil || got.Fetch.Files != len(files) {
		t.Errorf("download: %+v, %v", got, err)
	}
	// Offline, it stops at once with the URL and the by-hand steps.
	if _, err := Locate(ctx, c, "", "", filepath.Join(root, "data", "other"), offline); err == nil || !strings.Contains(err.Error(), "sha256sum -c") {
		t.Errorf("offline: %v", err)
	}
}

// FuzzUnpack feeds arbitrary bytes as the archive, for both layouts:
// unpack must fail cleanly or write only verified, listed files, and only
// inside its folder. Minimizing the 20 KB inputs is slow, so:
//
//	go test -run '^$' -fuzz FuzzUnpack -fuzztime 20s -fuzzminimizetime 1x ./recipes/fetch
func FuzzUnpack(f *testing.F) {
	tree := treeFiles(2, 1)
	flat := map[string][]byte{"0_a_0.wav": []byte("zero"), "1_a_0.wav": []byte("one")}
	good := treeArchive(f, "toy762", tree)
	f.Add(good, false)
	f.Add(good[:len(good)/2], false)
	f.Add(flatArchive(f, flat), true)
	f.Add(flatArchive(f, flat, reg("toy-1.0/recordings/../x", nil)), true)
	f.Fuzz(func(t *testing.T, archive []byte, isFlat bool) {
		c, files := treeCorpus(), tree
		if isFlat {
			c, files = flatCorpus(), flat
		}
		sums := sumsOf(files)
		root := t.TempDir()
		dir := filepath.Join(root, "kept")
		var n atomic.Int64
		_, _, err := unpack(bytes.NewReader(archive), dir, c, Options{Sums: sums, MaxFileBytes: 1 << 20}, &n)
		filepath.WalkDir(root, func(p string, d os.DirEntry, _ error) error {
			if d == nil || d.IsDir() {
				return nil
			}
			rel, _ := filepath.Rel(dir, p)
			rel = filepath.ToSlash(rel)
			want, listed := sums[rel]
			if !listed || !d.Type().IsRegular() {
				t.Errorf("unpack wrote %s", p)
				return nil
			}
			if b, _ := os.ReadFile(p); sha256.Sum256(b) != want && err == nil {
				t.Errorf("%s accepted with a wrong checksum", rel)
			}
			return nil
		})
		if err == nil && n.Load() != int64(len(sums)) {
			t.Errorf("success with %d of %d files", n.Load(), len(sums))
		}
	})
}

func FuzzParseSums(f *testing.F) {
	f.Add([]byte(strings.Repeat("ab", 32)+"  0_a_0.wav\n"), true)
	f.Add([]byte(strings.Repeat("ab", 32)+"  WAVE/S1/x.WAV\n"+strings.Repeat("cd", 32)+" *train/text\r\n"), false)
	f.Fuzz(func(t *testing.T, in []byte, flat bool) {
		s, err := ParseSums(bytes.NewReader(in), "fuzz", flat)
		if err != nil {
			if !errors.Is(err, ErrBadSums) && !strings.Contains(err.Error(), "fuzz: line") {
				t.Errorf("error %v wraps neither ErrBadSums nor names the line", err)
			}
			return
		}
		for name := range s {
			if (flat && !PlainName(name)) || !CleanPath(name) {
				t.Errorf("accepted %q", name)
			}
		}
	})
}
