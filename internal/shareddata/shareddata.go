package shareddata

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// repoRoot is the repository's root folder, found from this file's path
// (internal/shareddata/shareddata.go in the repository).
func repoRoot() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Root returns the ../shared folder beside the repository root, or "" when
// there is none. The environment variable STRODE_SHARED overrides it (for a
// copy elsewhere, e.g. on a benchmark machine; point it at a folder that
// does not exist to see what a bare clone sees).
func Root() string {
	if d := os.Getenv("STRODE_SHARED"); d != "" {
		return d
	}
	root := repoRoot()
	if root == "" {
		return ""
	}
	dir := filepath.Join(root, "..", "shared")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// Mirror returns the repository's testdata/ folder, the in-git subset of
// ../shared, or "" when it cannot be found.
func Mirror() string {
	root := repoRoot()
	if root == "" {
		return ""
	}
	return filepath.Join(root, "testdata")
}

// Dir returns the folder of reference data sub ("kaldi-golden",
// "kaldi-mini", "data/fsdd"): ../shared/sub when it is there, else the
// repository's copy testdata/sub. It skips tb when neither exists. Tests
// that need files the repository's copy lacks call Full instead, or look
// each file up with File.
func Dir(tb testing.TB, sub string) string {
	tb.Helper()
	if root := Root(); root != "" && isDir(filepath.Join(root, sub)) {
		return filepath.Join(root, sub)
	}
	if m := Mirror(); m != "" && isDir(filepath.Join(m, sub)) {
		return filepath.Join(m, sub)
	}
	return Full(tb, sub)
}

// Full returns ../shared/sub itself, for the large cases kept out of the
// repository; it skips tb when ../shared/sub is absent.
func Full(tb testing.TB, sub string) string {
	tb.Helper()
	root := Root()
	if root == "" {
		tb.Skipf("needs ../shared/%s (the project's Kaldi reference data, cloned beside the repository): no ../shared", sub)
	}
	dir := filepath.Join(root, sub)
	if _, err := os.Stat(dir); err != nil {
		tb.Skipf("needs ../shared/%s (the project's Kaldi reference data, cloned beside the repository): %v", sub, err)
	}
	return dir
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// File returns the path of one reference file, sub/name (e.g. "kaldi-mini",
// "golden/test5_loglikes.ark"): ../shared's when it is there, else the
// repository's copy. It skips tb when neither has it.
func File(tb testing.TB, sub, name string) string {
	tb.Helper()
	if p := Find(sub, name); p != "" {
		return p
	}
	if root := Root(); root == "" || !isDir(root) {
		tb.Skipf("needs %s/%s, which the repository's testdata/ does not hold and ../shared (the project's Kaldi reference data, cloned beside the repository) is absent", sub, name)
	}
	tb.Skipf("needs %s/%s: in neither the repository's testdata/ nor %s", sub, name, Root())
	return ""
}

// Candidates returns the folders that may hold sub, ../shared's first, for
// code that looks for optional files itself (fuzz seeds).
func Candidates(sub string) []string {
	var out []string
	for _, root := range []string{Root(), Mirror()} {
		if root != "" {
			out = append(out, filepath.Join(root, sub))
		}
	}
	return out
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}

// Find is File without the skip: the path of sub/name, ../shared's first,
// or "" when neither has it.
func Find(sub, name string) string {
	for _, root := range []string{Root(), Mirror()} {
		if root == "" {
			continue
		}
		if p := filepath.Join(root, sub, name); fileExists(p) {
			return p
		}
	}
	return ""
}
