package shareddata

import (
	"bufio"
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"testing"
)

// manifestRow is one file of testdata/MANIFEST.md: its path in testdata/,
// its source in ../shared, and the command that made it.
type manifestRow struct{ path, source, command string }

var rowRE = regexp.MustCompile("^\\| `([^`]+)` \\| `([^`]+)` \\| (.+) \\|$")

func readManifest(t *testing.T) []manifestRow {
	t.Helper()
	f, err := os.Open(filepath.Join(Mirror(), "MANIFEST.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []manifestRow
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		if m := rowRE.FindStringSubmatch(sc.Text()); m != nil {
			rows = append(rows, manifestRow{m[1], m[2], m[3]})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// The manifest lists exactly the files in testdata/, each once, with a
// source and a command.
func TestMirrorManifest(t *testing.T) {
	rows := readManifest(t)
	listed := map[string]bool{}
	for _, r := range rows {
		if listed[r.path] {
			t.Errorf("MANIFEST.md lists %s twice", r.path)
		}
		listed[r.path] = true
		if r.command == "" {
			t.Errorf("MANIFEST.md: %s has no command", r.path)
		}
	}
	var present []string
	root := Mirror()
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel != "MANIFEST.md" {
			present = append(present, rel)
		}
		return nil
	})
	sort.Strings(present)
	for _, p := range present {
		if !listed[p] {
			t.Errorf("testdata/%s is not in testdata/MANIFEST.md", p)
		}
		delete(listed, p)
	}
	for p := range listed {
		t.Errorf("testdata/MANIFEST.md lists %s, which is not in testdata/", p)
	}
	if len(present) < 100 {
		t.Errorf("only %d files in testdata/", len(present))
	}
}

// Every file of the repository's copy is ../shared's, byte for byte; a
// derived file is a leading part of its source ending at an archive entry.
func TestMirrorMatchesShared(t *testing.T) {
	root := Root()
	if root == "" || !isDir(root) {
		t.Skip("needs ../shared (the project's Kaldi reference data, cloned beside the repository) to check the repository's copy against it")
	}
	for _, r := range readManifest(t) {
		got, err := os.ReadFile(filepath.Join(Mirror(), r.path))
		if err != nil {
			t.Error(err)
			continue
		}
		src, err := os.ReadFile(filepath.Join(root, r.source))
		if err != nil {
			t.Errorf("%s: source: %v", r.path, err)
			continue
		}
		if r.path == r.source {
			if !bytes.Equal(got, src) {
				t.Errorf("testdata/%s differs from ../shared/%s", r.path, r.source)
			}
			continue
		}
		rest, ok := bytes.CutPrefix(src, got)
		if !ok || !bytes.HasSuffix(got, []byte("\n")) || (len(rest) > 0 && (rest[0] == ' ' || rest[0] == '\n')) {
			t.Errorf("testdata/%s is not a leading part of ../shared/%s ending at an archive entry", r.path, r.source)
		}
	}
}
