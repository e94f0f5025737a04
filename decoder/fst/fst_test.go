package fst

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The binary readers must agree with fstprint's dump of the same files.
func TestReadFstMatchesFstprint(t *testing.T) {
	phones := mustSymbols(t, "testdata/phones.txt")
	words := mustSymbols(t, "testdata/words.txt")
	for _, tc := range []struct {
		bin, txt     string
		isyms, osyms *SymbolTable
		states, arcs int
		start        StateID
	}{
		{"testdata/L.fst", "testdata/L.fst.txt", phones, words, 25, 49, 0},
		{"testdata/HCLG.fst", "testdata/HCLG.fst.txt", nil, words, 101, 222, 74},
	} {
		f := mustReadFst(t, tc.bin)
		if f.NumStates() != tc.states || f.NumArcs() != tc.arcs || f.Start != tc.start {
			t.Errorf("%s: %d states %d arcs start %d, want %d %d %d", tc.bin, f.NumStates(), f.NumArcs(), f.Start, tc.states, tc.arcs, tc.start)
		}
		fh, err := os.Open(tc.txt)
		if err != nil {
			t.Fatal(err)
		}
		g, err := NewTextReader(fh, tc.txt, TextOptions{ISymbols: tc.isyms, OSymbols: tc.osyms}).ReadAll()
		fh.Close()
		if err != nil {
			t.Fatal(err)
		}
		// fstprint prints 9 significant digits: equal within float32 rounding.
		if !f.ApproxEqual(g, 1e-6) {
			t.Errorf("%s differs from %s", tc.bin, tc.txt)
		}
		// Our text writer reproduces fstprint's bytes.
		var buf bytes.Buffer
		if err := WriteText(&buf, f, TextOptions{ISymbols: tc.isyms, OSymbols: tc.osyms, Precision: 9}); err != nil {
			t.Fatal(err)
		}
		want, _ := os.ReadFile(tc.txt)
		if buf.String() != string(want) {
			t.Errorf("%s: our text differs from fstprint's", tc.bin)
		}
	}
}

// Writing the ConstFst back gives the same bytes, up to the properties word
// (we store only the properties we compute).
func TestConstFstRoundTrip(t *testing.T) {
	orig, err := os.ReadFile("testdata/HCLG.fst")
	if err != nil {
		t.Fatal(err)
	}
	f := mustReadFst(t, "testdata/HCLG.fst")
	var buf bytes.Buffer
	if err := WriteConstFst(&buf, f); err != nil {
		t.Fatal(err)
	}
	got := buf.Bytes()
	if len(got) != len(orig) {
		t.Fatalf("wrote %d bytes, want %d", len(got), len(orig))
	}
	const propsAt = 4 + 4 + 5 + 4 + 8 + 4 + 4 // magic, "const", "standard", version, flags
	if !bytes.Equal(got[:propsAt], orig[:propsAt]) || !bytes.Equal(got[propsAt+8:], orig[propsAt+8:]) {
		t.Error("ConstFst bytes differ outside the properties word")
	}
	// Our properties must be a subset of what OpenFst stored.
	ours, theirs := binary.LittleEndian.Uint64(got[propsAt:]), binary.LittleEndian.Uint64(orig[propsAt:])
	if ours&^theirs != 0 {
		t.Errorf("properties %#x claim bits %#x OpenFst did not", ours, ours&^theirs)
	}
}

func TestVectorFstRoundTripInMemory(t *testing.T) {
	for _, p := range []string{"testdata/L.fst", "testdata/HCLG.fst"} {
		f := mustReadFst(t, p)
		var buf bytes.Buffer
		if err := WriteVectorFst(&buf, f); err != nil {
			t.Fatal(err)
		}
		g, err := NewReader(&buf, "buf").Read()
		if err != nil {
			t.Fatal(err)
		}
		if !f.Equal(g) {
			t.Errorf("%s: vector round trip differs", p)
		}
		if p == "testdata/L.fst" {
			// Byte-identical with OpenFst's file up to the properties word.
			orig, _ := os.ReadFile(p)
			var again bytes.Buffer
			WriteVectorFst(&again, f)
			if !bytes.Equal(maskFstProperties(t, again.Bytes()), maskFstProperties(t, orig)) {
				t.Errorf("%s: VectorFst bytes differ from OpenFst's outside the properties word", p)
			}
		}
	}
}

// Files we write are accepted by OpenFst's tools and survive
// fstprint | fstcompile --keep_state_numbering unchanged (fstequal).
func TestWrittenFstPassesOpenFstTools(t *testing.T) {
	needTool(t, "fstinfo")
	needTool(t, "fstprint")
	needTool(t, "fstcompile")
	needTool(t, "fstequal")
	dir := t.TempDir()
	for _, p := range []string{"testdata/L.fst", "testdata/HCLG.fst"} {
		f := mustReadFst(t, p)
		for _, kind := range []string{"vector", "const"} {
			out := filepath.Join(dir, filepath.Base(p)+"."+kind)
			var err error
			if kind == "vector" {
				err = WriteFile(out, f)
			} else {
				err = writeFileAtomic(out, func(w io.Writer) error { return WriteConstFst(w, f) })
			}
			if err != nil {
				t.Fatal(err)
			}
			info, err := exec.Command("fstinfo", out).CombinedOutput()
			if err != nil || !strings.Contains(string(info), "fst type                                          "+kind) {
				t.Fatalf("fstinfo %s: %v\n%s", out, err, info)
			}
			rt := out + ".rt"
			cmd := exec.Command("sh", "-c", "fstprint "+out+" | fstcompile --keep_state_numbering - "+rt)
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("fstprint | fstcompile: %v\n%s", err, msg)
			}
			if msg, err := exec.Command("fstequal", out, rt).CombinedOutput(); err != nil {
				t.Errorf("fstequal %s after fstprint|fstcompile: %v\n%s", out, err, msg)
			}
			// Original and ours are the same machine too.
			if msg, err := exec.Command("fstequal", p, out).CombinedOutput(); err != nil {
				t.Errorf("fstequal %s %s: %v\n%s", p, out, err, msg)
			}
			// And our reader reads fstcompile's output back to the same FST,
			// identical (same numbering, weights within fstprint's 9 digits).
			g := mustReadFst(t, rt)
			if !g.ApproxEqual(f, 1e-6) {
				t.Errorf("%s: fstprint | fstcompile changed the FST", out)
			}
		}
	}
}

func TestFstReadErrors(t *testing.T) {
	orig, err := os.ReadFile("testdata/L.fst")
	if err != nil {
		t.Fatal(err)
	}
	wrongMagic := append([]byte{1, 2, 3, 4}, orig[4:]...)
	for _, tc := range []struct {
		name string
		data []byte
		want error
		msg  string
	}{
		{"wrong magic", wrongMagic, ErrNotFst, "at byte 4"},
		{"truncated header", orig[:30], ErrBadFst, "header"},
		{"truncated body", orig[:len(orig)-7], ErrBadFst, "state 24"},
		{"bad arc target", corruptNextState(orig), ErrBadFst, "out of range"},
	} {
		_, err := NewReader(bytes.NewReader(tc.data), "x.fst").Read()
		if !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "x.fst") || !strings.Contains(err.Error(), tc.msg) {
			t.Errorf("%s: got %v, want %v mentioning x.fst and %q", tc.name, err, tc.want, tc.msg)
		}
	}
	hclg, _ := os.ReadFile("testdata/HCLG.fst")
	if _, err := NewReader(bytes.NewReader(hclg[:len(hclg)-3]), "HCLG.fst").Read(); !errors.Is(err, ErrBadFst) || !strings.Contains(err.Error(), "const arc") {
		t.Errorf("truncated const: %v", err)
	}
}

// corruptNextState points the first arc of L.fst's first state far away.
func corruptNextState(orig []byte) []byte {
	b := append([]byte(nil), orig...)
	const body = 66         // vector header length for "vector"/"standard"
	at := body + 4 + 8 + 12 // first state's final, narcs; first arc's nextstate
	binary.LittleEndian.PutUint32(b[at:], 9999)
	return b
}

func FuzzReader(f *testing.F) {
	for _, p := range []string{"testdata/L.fst", "testdata/HCLG.fst"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		f.Add(b[:len(b)/2])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fst, err := NewReader(bytes.NewReader(data), "fuzz").Read()
		if err != nil {
			return
		}
		if err := fst.Validate(); err != nil {
			t.Fatalf("reader returned an invalid FST: %v", err)
		}
		var buf bytes.Buffer
		if err := WriteVectorFst(&buf, fst); err != nil {
			t.Fatal(err)
		}
		g, err := NewReader(&buf, "rt").Read()
		if err != nil {
			t.Fatalf("cannot read back what we wrote: %v", err)
		}
		if g.NumStates() != fst.NumStates() || g.NumArcs() != fst.NumArcs() {
			t.Fatal("round trip changed the FST")
		}
	})
}

func FuzzText(f *testing.F) {
	b, err := os.ReadFile("testdata/HCLG.fst.txt")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b[:400]))
	f.Add("0 1 2 3 0.5\n1\n")
	f.Fuzz(func(t *testing.T, s string) {
		fst, err := NewTextReader(strings.NewReader(s), "fuzz", TextOptions{MaxStates: 1 << 16}).ReadAll()
		if err != nil {
			return
		}
		if err := fst.Validate(); err != nil {
			t.Fatalf("text reader returned an invalid FST: %v", err)
		}
	})
}
