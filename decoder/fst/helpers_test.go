package fst

import (
	"os/exec"
	"testing"
)

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
	f, err := ReadFile(path)
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
