package align

import (
	"os/exec"
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/internal/shareddata"
)

// sharedDir is ../shared beside the repository root (where CI clones it).
func sharedDir(t testing.TB, sub string) string {
	t.Helper()
	return shareddata.Dir(t, sub)
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

func mustReadFst(t testing.TB, path string) *fst.VectorFst {
	t.Helper()
	f, err := fst.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func mustSymbols(t testing.TB, path string) *fst.SymbolTable {
	t.Helper()
	s, err := fst.ReadSymbolTableFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
