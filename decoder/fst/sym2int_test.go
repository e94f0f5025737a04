package fst

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

func TestSymbolMapper(t *testing.T) {
	words := mustSymbols(t, "testdata/words.txt")
	in := "utt1 one two\nutt2 two forty\n"
	m := &SymbolMapper{Table: words, Fields: FieldRange{2, 0}}
	var out bytes.Buffer
	err := m.MapText(strings.NewReader(in), &out, "text")
	if !errors.Is(err, ErrOOV) || !strings.Contains(err.Error(), "utterance utt2") || !strings.Contains(err.Error(), "line 2") || !strings.Contains(err.Error(), `"forty"`) {
		t.Errorf("unknown word without --map-oov: %v", err)
	}
	m = &SymbolMapper{Table: words, Fields: FieldRange{2, 0}, OOV: "<SIL>"}
	out.Reset()
	if err := m.MapText(strings.NewReader(in), &out, "text"); err != nil {
		t.Fatal(err)
	}
	if out.String() != "utt1 7 11\nutt2 11 1\n" || m.NumOOV != 1 {
		t.Errorf("got %q, %d OOVs", out.String(), m.NumOOV)
	}
	// An integer --map-oov (the lang's oov.int) is written as it is.
	m = &SymbolMapper{Table: words, Fields: FieldRange{2, 0}, OOV: "1"}
	out.Reset()
	if err := m.MapText(strings.NewReader(in), &out, "text"); err != nil || out.String() != "utt1 7 11\nutt2 11 1\n" {
		t.Errorf("--map-oov=1: %q, %v", out.String(), err)
	}
	m = &SymbolMapper{Table: words, Fields: FieldRange{2, 0}, OOV: "<NOPE>"}
	if err := m.MapText(strings.NewReader(in), &out, "text"); !errors.Is(err, ErrOOV) {
		t.Errorf("--map-oov of a symbol the table lacks: %v", err)
	}
	for s, want := range map[string]FieldRange{"2-": {2, 0}, "1-3": {1, 3}, "4": {4, 4}} {
		if got, err := ParseFieldRange(s); err != nil || got != want {
			t.Errorf("%q: %v %v", s, got, err)
		}
	}
	if _, err := ParseFieldRange("x"); err == nil {
		t.Error("bad range accepted")
	}
}
