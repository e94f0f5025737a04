package decoder

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// sharedDir is ../shared beside the repository root (where CI clones it).
func sharedDir(t testing.TB, sub string) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	dir := filepath.Join(filepath.Dir(file), "..", "..", "shared", sub)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("needs %s (the project's shared Kaldi reference data beside the repository): %v", dir, err)
	}
	return dir
}

// needTool skips when an OpenFst command-line tool is missing.
func needTool(t testing.TB, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("needs OpenFst's %s (apt-get install libfst-tools): %v", name, err)
	}
	return p
}

func mustReadFst(t testing.TB, path string) *VectorFst {
	t.Helper()
	f, err := ReadFstFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustSymbols(t testing.TB, path string) *SymbolTable {
	t.Helper()
	s, err := ReadSymbolTableFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
