// Package shareddata finds ../shared, the project's reference data kept
// beside the repository rather than in it: outputs of real Kaldi tools
// (kaldi-golden, kaldi-mini) and the datasets the recipes run on. Tests that
// compare against it call Dir, which skips the test with a message naming
// what is missing when the folder is absent (CI clones the repository with
// ../shared beside it; a bare clone has none).
package shareddata

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Root returns the ../shared folder beside the repository root, or "" when
// there is none. The environment variable STRODE_SHARED overrides it (for a
// copy elsewhere, e.g. on a benchmark machine).
func Root() string {
	if d := os.Getenv("STRODE_SHARED"); d != "" {
		return d
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return ""
	}
	// This file is internal/shareddata/shareddata.go in the repository.
	dir := filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
	if _, err := os.Stat(dir); err != nil {
		return ""
	}
	return dir
}

// Dir returns ../shared/sub, or skips tb with a message when it is absent.
func Dir(tb testing.TB, sub string) string {
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
