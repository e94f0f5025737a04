package hmm

import (
	"testing"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/internal/shareddata"
)

// sharedDir is ../shared beside the repository root (where CI clones it).
func sharedDir(t testing.TB, sub string) string {
	t.Helper()
	return shareddata.Dir(t, sub)
}

func mustSymbols(t testing.TB, path string) *fst.SymbolTable {
	t.Helper()
	s, err := fst.ReadSymbolTableFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
