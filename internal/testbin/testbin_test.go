package testbin

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeModule writes a module with a cmd/strode that prints a word it
// embeds, and returns its root.
func fakeModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for name, text := range map[string]string{
		"go.mod":                  "module " + modulePath + "\n\ngo 1.22\n",
		"cmd/strode/main.go":      "package main\n\nimport (\n\t_ \"embed\"\n\t\"fmt\"\n)\n\n//go:embed word.txt\nvar word string\n\nfunc main() { fmt.Print(word) }\n",
		"cmd/strode/word.txt":     "hello",
		"cmd/strode/main_test.go": "package main\n",
		"lib/testdata/x.go":       "package x\n",
		"lib/README.md":           "notes",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// The key changes with what the build reads (a Go source, an embedded
// file, the build settings, the checkout) and with nothing else (tests,
// testdata, docs).
func TestSourceKey(t *testing.T) {
	root := fakeModule(t)
	key := func() string {
		t.Helper()
		k, err := sourceKey(root, "go1.x linux amd64")
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := key()
	if k2 := key(); k2 != base {
		t.Fatalf("same tree, keys %s and %s", base, k2)
	}
	if k, _ := sourceKey(root, "go1.y linux amd64"); k == base {
		t.Error("another Go version gives the same key")
	}
	if k, _ := sourceKey(fakeModule(t), "go1.x linux amd64"); k == base {
		t.Error("another checkout of the same files gives the same key")
	}
	for _, c := range []struct {
		file    string
		changes bool
	}{
		{"cmd/strode/main_test.go", false},
		{"lib/testdata/x.go", false},
		{"lib/README.md", false},
		{"cmd/strode/word.txt", true},
		{"cmd/strode/main.go", true},
		{"lib/new.go", true},
		{"go.sum", true},
	} {
		p := filepath.Join(root, filepath.FromSlash(c.file))
		f, err := os.OpenFile(p, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString("\n// edited\n")
		f.Close()
		k := key()
		if (k != base) != c.changes {
			t.Errorf("editing %s: key changed %v, want %v", c.file, k != base, c.changes)
		}
		base = k
	}
}

// Concurrent callers (each with its own lock file handle, as separate
// processes have) get one binary, built once, that runs.
func TestBuildOnce(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	root, cache := fakeModule(t), t.TempDir()
	const n = 4
	paths := make([]string, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			paths[i], errs[i] = build(root, cache, "k1")
		}()
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil {
			t.Fatal(errs[i])
		}
		if paths[i] != paths[0] {
			t.Errorf("caller %d got %s, caller 0 %s", i, paths[i], paths[0])
		}
	}
	st, err := os.Stat(paths[0])
	if err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(paths[0]).Output(); err != nil || string(out) != "hello" {
		t.Errorf("the built binary printed %q, %v; want hello", out, err)
	}
	// Again: the cached binary, not a new build.
	p, err := build(root, cache, "k1")
	if err != nil {
		t.Fatal(err)
	}
	if st2, err := os.Stat(p); err != nil || !os.SameFile(st, st2) || !st2.ModTime().Equal(st.ModTime()) {
		t.Errorf("a second call rebuilt %s", p)
	}
	ents, _ := os.ReadDir(filepath.Join(cache, "k1"))
	if len(ents) != 1 {
		t.Errorf("cache entry holds %d files, want only strode (no temporary left over)", len(ents))
	}
}

// A broken source is an error naming the build, not a missing binary later.
func TestBuildError(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("needs the go command")
	}
	root := fakeModule(t)
	os.WriteFile(filepath.Join(root, "cmd/strode/bad.go"), []byte("package main\n\nfunc broken() { undefined() }\n"), 0o644)
	_, err := build(root, t.TempDir(), "k")
	if err == nil || !strings.Contains(err.Error(), "go build") || !strings.Contains(err.Error(), "undefined") {
		t.Errorf("got %v, want the go build error", err)
	}
}

// $STRODE wins, and must name a file.
func TestStrodeEnv(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "strode")
	os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755)
	t.Setenv("STRODE", bin)
	if p, err := find(); err != nil || p != bin {
		t.Errorf("find() = %q, %v; want %s", p, err, bin)
	}
	t.Setenv("STRODE", filepath.Join(t.TempDir(), "none"))
	if _, err := find(); err == nil {
		t.Error("$STRODE naming no file was accepted")
	}
}

// This module's root is found and hashed (the whole tree, in well under a
// second).
func TestModuleKey(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if !isFile(filepath.Join(root, "cmd", "strode", "main.go")) {
		t.Fatalf("module root %s has no cmd/strode/main.go", root)
	}
	if _, err := sourceKey(root, ""); err != nil {
		t.Fatal(err)
	}
}
