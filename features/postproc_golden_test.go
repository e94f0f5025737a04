package features

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// binMatrix is one FM or DM matrix of a binary archive, as float64.
type binMatrix struct {
	key        string
	rows, cols int
	data       []float64
}

// readBinaryArk reads a binary archive of FM/DM matrices (the test's own
// small reader, so these tests do not depend on kaldiio).
func readBinaryArk(t testing.TB, path string) []binMatrix {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []binMatrix
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		if sp < 0 || len(b) < sp+3+3+10 {
			t.Fatalf("%s: malformed archive", path)
		}
		m := binMatrix{key: string(b[:sp])}
		b = b[sp+1:]
		if b[0] != 0 || b[1] != 'B' {
			t.Fatalf("%s: %s: not binary", path, m.key)
		}
		tok := string(b[2:5])
		b = b[5:]
		m.rows = int(int32(binary.LittleEndian.Uint32(b[1:5])))
		m.cols = int(int32(binary.LittleEndian.Uint32(b[6:10])))
		b = b[10:]
		n := m.rows * m.cols
		m.data = make([]float64, n)
		switch tok {
		case "FM ":
			for i := range m.data {
				m.data[i] = float64(math.Float32frombits(binary.LittleEndian.Uint32(b[4*i:])))
			}
			b = b[4*n:]
		case "DM ":
			for i := range m.data {
				m.data[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
			}
			b = b[8*n:]
		default:
			t.Fatalf("%s: %s: token %q", path, m.key, tok)
		}
		out = append(out, m)
	}
	return out
}

func (m binMatrix) float32s() []float32 {
	f := make([]float32, len(m.data))
	for i, v := range m.data {
		f[i] = float32(v)
	}
	return f
}

// textEqualStats compares against a text archive (7 significant digits):
// "equal to float precision" means within the printing precision.
func textEqualCheck(t *testing.T, name string, want []textMatrix, got map[string][][]float32) {
	t.Helper()
	st := compareMatrices(t, name, want, got)
	t.Logf("%s: %v", name, st)
	// Printed with 7 significant digits: relative 5e-7, plus float rounding.
	if st.maxRel > 2e-6 {
		t.Errorf("%s: not equal to float/print precision: %v", name, st)
	}
}

func TestGoldenCmvnStats(t *testing.T) {
	g := needGolden(t)
	feats := readBinaryArk(t, filepath.Join(g, "fbank23.ark"))
	want := readBinaryArk(t, filepath.Join(g, "cmvn23.ark"))
	if len(feats) != len(want) {
		t.Fatalf("%d feature matrices, %d stats", len(feats), len(want))
	}
	var maxDiff float64
	for i, f := range feats {
		st := NewCmvnStats(f.cols)
		if err := AccCmvnStats(st, f.float32s(), f.rows, f.cols); err != nil {
			t.Fatal(err)
		}
		w := want[i]
		if w.key != f.key || w.rows != 2 || w.cols != f.cols+1 {
			t.Fatalf("stats %s %dx%d for %s", w.key, w.rows, w.cols, f.key)
		}
		for j := range st {
			maxDiff = max(maxDiff, math.Abs(st[j]-w.data[j])/max(1, math.Abs(w.data[j])))
		}
	}
	t.Logf("cmvn23.ark: max relative difference %.3g", maxDiff)
	if maxDiff > 1e-12 {
		t.Errorf("CMVN stats differ from Kaldi's by %g (relative)", maxDiff)
	}
}

func TestGoldenApplyCmvn(t *testing.T) {
	g := needGolden(t)
	feats := readBinaryArk(t, filepath.Join(g, "fbank23.ark"))
	stats := readBinaryArk(t, filepath.Join(g, "cmvn23.ark"))
	for _, normVars := range []bool{false, true} {
		name := "fbank23_cmvn.txt.ark"
		if normVars {
			name = "fbank23_cmvn_normvars.txt.ark"
		}
		got := map[string][][]float32{}
		for i, f := range feats {
			x := f.float32s()
			if _, err := ApplyCmvn(stats[i].data, 2, normVars, x, f.rows, f.cols); err != nil {
				t.Fatal(err)
			}
			got[f.key] = toRows(x, f.rows, f.cols)
		}
		want := readTextArk(t, filepath.Join(g, name))
		st := compareMatrices(t, name, want, got)
		t.Logf("%s: %v", name, st)
		// Values near 0 after mean removal: compare absolutely at the
		// printing precision of the inputs' magnitude.
		if st.maxAbs > 2e-5 {
			t.Errorf("%s: %v", name, st)
		}
	}
}

func TestGoldenDeltasSplice(t *testing.T) {
	g := needGolden(t)
	feats := readBinaryArk(t, filepath.Join(g, "fbank23.ark"))
	for _, c := range []struct {
		file          string
		order, window int
	}{{"fbank23_deltas.txt.ark", 2, 2}, {"fbank23_deltas_o3w3.txt.ark", 3, 3}} {
		df, err := NewDeltaFeatures(DeltaFeaturesOptions{Order: c.order, Window: c.window})
		if err != nil {
			t.Fatal(err)
		}
		got := map[string][][]float32{}
		for _, f := range feats {
			got[f.key] = toRows(df.Compute(f.float32s(), f.rows, f.cols), f.rows, f.cols*(c.order+1))
		}
		st := compareMatrices(t, c.file, readTextArk(t, filepath.Join(g, c.file)), got)
		t.Logf("%s: %v", c.file, st)
		if st.maxAbs > 2e-5 {
			t.Errorf("%s: %v", c.file, st)
		}
	}
	got := map[string][][]float32{}
	for _, f := range feats {
		s, err := SpliceFrames(f.float32s(), f.rows, f.cols, 2, 2)
		if err != nil {
			t.Fatal(err)
		}
		got[f.key] = toRows(s, f.rows, f.cols*5)
	}
	textEqualCheck(t, "fbank23_splice2.txt.ark", readTextArk(t, filepath.Join(g, "fbank23_splice2.txt.ark")), got)
}
