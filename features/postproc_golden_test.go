package features

import (
	"bytes"
	"encoding/binary"
	"math"
	"os"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
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
	feats := readBinaryArk(t, golden(t, "fbank23.ark"))
	want := readBinaryArk(t, golden(t, "cmvn23.ark"))
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
	feats := readBinaryArk(t, golden(t, "fbank23.ark"))
	stats := readBinaryArk(t, golden(t, "cmvn23.ark"))
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
		want := readTextArk(t, golden(t, name))
		st := compareMatrices(t, name, want, got)
		t.Logf("%s: %v", name, st)
		// Values near 0 after mean removal: compare absolutely at the
		// printing precision of the inputs' magnitude.
		if st.maxAbs > 2e-5 {
			t.Errorf("%s: %v", name, st)
		}
	}
}

// TestGoldenDeltasSplice compares add-deltas and splice-feats with Kaldi's
// on fbank23.ark. The deltas goldens are in ../shared only (the repository
// checks deltas on kaldi-mini's features, TestKaldiMiniCmvnDeltas); for
// splice-feats the repository keeps the first utterance's output.
func TestGoldenDeltasSplice(t *testing.T) {
	feats := readBinaryArk(t, golden(t, "fbank23.ark"))
	for _, c := range []struct {
		file          string
		order, window int
	}{{"fbank23_deltas.txt.ark", 2, 2}, {"fbank23_deltas_o3w3.txt.ark", 3, 3}} {
		t.Run(c.file, func(t *testing.T) {
			want := readTextArk(t, golden(t, c.file))
			df, err := NewDeltaFeatures(DeltaFeaturesOptions{Order: c.order, Window: c.window})
			if err != nil {
				t.Fatal(err)
			}
			got := map[string][][]float32{}
			for _, f := range feats {
				got[f.key] = toRows(df.Compute(f.float32s(), f.rows, f.cols), f.rows, f.cols*(c.order+1))
			}
			st := compareMatrices(t, c.file, want, got)
			t.Logf("%s: %v", c.file, st)
			if st.maxAbs > 2e-5 {
				t.Errorf("%s: %v", c.file, st)
			}
		})
	}
	t.Run("fbank23_splice2.txt.ark", func(t *testing.T) {
		name := "fbank23_splice2.txt.ark"
		if shareddata.Find("kaldi-golden", name) == "" {
			name = "fbank23_splice2.s_utt1.txt.ark" // the repository's: s_utt1 only
		}
		want := readTextArk(t, golden(t, name))
		got := map[string][][]float32{}
		for _, f := range feats[:len(want)] {
			s, err := SpliceFrames(f.float32s(), f.rows, f.cols, 2, 2)
			if err != nil {
				t.Fatal(err)
			}
			got[f.key] = toRows(s, f.rows, f.cols*5)
		}
		textEqualCheck(t, name, want, got)
	})
}

// TestKaldiMiniCmvnDeltas replays kaldi-mini's feature chain on its first
// five test utterances: per-speaker compute-cmvn-stats --spk2utt on Kaldi's
// MFCCs, then apply-cmvn --utt2spk (means only, Kaldi's default) | add-deltas,
// compared with Kaldi's binary outputs (exact float32/double values).
func TestKaldiMiniCmvnDeltas(t *testing.T) {
	mfcc := readBinaryArk(t, shareddata.File(t, "kaldi-mini", "golden/test5_mfcc.ark"))
	wantStats := readBinaryArk(t, shareddata.File(t, "kaldi-mini", "golden/test5_cmvn.ark"))
	wantFeats := readBinaryArk(t, shareddata.File(t, "kaldi-mini", "golden/test5_feats.ark"))
	utt2spk := map[string]string{}
	for _, kv := range readScp(t, shareddata.File(t, "kaldi-mini", "golden/test5.utt2spk")) {
		utt2spk[kv[0]] = kv[1]
	}
	if len(mfcc) != 5 || len(wantStats) != 2 || len(wantFeats) != 5 {
		t.Fatalf("%d MFCC matrices, %d stats, %d feature matrices; want 5, 2, 5", len(mfcc), len(wantStats), len(wantFeats))
	}
	dim := mfcc[0].cols
	stats := map[string][]float64{}
	for _, m := range mfcc {
		spk := utt2spk[m.key]
		if stats[spk] == nil {
			stats[spk] = NewCmvnStats(dim)
		}
		if err := AccCmvnStats(stats[spk], m.float32s(), m.rows, m.cols); err != nil {
			t.Fatal(err)
		}
	}
	for _, w := range wantStats {
		got := stats[w.key]
		if len(got) != len(w.data) {
			t.Fatalf("stats of %s: %d values, Kaldi's %d", w.key, len(got), len(w.data))
		}
		for j := range got {
			if d := math.Abs(got[j]-w.data[j]) / max(1, math.Abs(w.data[j])); d > 1e-12 {
				t.Fatalf("stats of %s [%d]: %g, Kaldi %g", w.key, j, got[j], w.data[j])
			}
		}
	}
	df, err := NewDeltaFeatures(DeltaFeaturesOptions{Order: 2, Window: 2})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][][]float32{}
	for _, m := range mfcc {
		x := m.float32s()
		if _, err := ApplyCmvn(stats[utt2spk[m.key]], 2, false, x, m.rows, m.cols); err != nil {
			t.Fatal(err)
		}
		got[m.key] = toRows(df.Compute(x, m.rows, m.cols), m.rows, 3*m.cols)
	}
	var want []textMatrix
	for _, m := range wantFeats {
		tm := textMatrix{key: m.key}
		for r := 0; r < m.rows; r++ {
			tm.rows = append(tm.rows, m.data[r*m.cols:(r+1)*m.cols])
		}
		want = append(want, tm)
	}
	st := compareMatrices(t, "test5_feats.ark", want, got)
	t.Logf("test5_feats.ark: %v", st)
	if st.maxAbs > 2e-5 {
		t.Errorf("apply-cmvn | add-deltas differs from Kaldi's test5_feats.ark: %v", st)
	}
}
