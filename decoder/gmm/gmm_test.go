package gmm

import (
	"bytes"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"

	"github.com/strode-asr/strode/kaldiio"
)

// writeModel writes m the way gmm-copy does.
func writeModel(t *testing.T, m *Model, binary bool) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "out.mdl")
	if err := kaldiio.WriteObject(path, ModelCodec, binary, m); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Kaldi's final.mdl stores the Gaussian constants it computed; reading
// recomputes them, so a byte-identical binary round trip proves our
// ComputeGconsts is Kaldi's to the last bit.
func TestModelBinaryRoundTripIsByteIdentical(t *testing.T) {
	want, err := os.ReadFile("testdata/mono.mdl")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadModel("testdata/mono.mdl")
	if err != nil {
		t.Fatal(err)
	}
	if m.AM.Dim != 39 || m.AM.NumPdfs() != 62 || m.AM.NumGauss() != 396 {
		t.Fatalf("dim %d, %d pdfs, %d Gaussians; want 39, 62, 396", m.AM.Dim, m.AM.NumPdfs(), m.AM.NumGauss())
	}
	if got := writeModel(t, m, true); !bytes.Equal(got, want) {
		t.Errorf("binary round trip differs from Kaldi's final.mdl (%d vs %d bytes)", len(got), len(want))
	}
}

// gmm-copy --binary=false output, read from the binary model.
func TestModelTextMatchesGmmCopy(t *testing.T) {
	dir := shareddata.Dir(t, "kaldi-mini")
	want, err := os.ReadFile(filepath.Join(dir, "exp/mono/final.mdl.txt"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadModel("testdata/mono.mdl")
	if err != nil {
		t.Fatal(err)
	}
	if got := writeModel(t, m, false); !bytes.Equal(got, want) {
		t.Errorf("text model differs from gmm-copy --binary=false (%d vs %d bytes)", len(got), len(want))
	}
	// The text form reads back to the same model up to its 7 printed
	// digits (its constants are recomputed from the rounded parameters, as
	// in Kaldi, so they are not compared).
	mt, err := ReadModel(filepath.Join(dir, "exp/mono/final.mdl.txt"))
	if err != nil {
		t.Fatal(err)
	}
	for p := range m.AM.Pdfs {
		a, b := m.AM.Pdfs[p].MeansInvVars, mt.AM.Pdfs[p].MeansInvVars
		for i := range a {
			if d := math.Abs(float64(a[i] - b[i])); d > 1e-6*math.Abs(float64(a[i])) {
				t.Fatalf("pdf %d: text model mean·invvar[%d] = %g, binary %g", p, i, b[i], a[i])
			}
		}
	}
}

func TestPrintInfoMatchesGmmInfo(t *testing.T) {
	want, err := os.ReadFile("testdata/gmm-info.txt")
	if err != nil {
		t.Fatal(err)
	}
	m, err := ReadModel("testdata/mono.mdl")
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	if err := m.PrintInfo(&b); err != nil {
		t.Fatal(err)
	}
	if b.String() != string(want) {
		t.Errorf("gmm-info:\n%s\nwant:\n%s", b.String(), want)
	}
}

// gmm-compute-likes on kaldi-mini's first five test utterances. Kaldi sums
// with BLAS in another order, and some of this model's Gaussians have
// constants near −10⁷ (silence in synthetic speech has almost no variance),
// where one float ulp is 0.5, so the tolerance is relative to the size of
// the terms.
func TestLogLikelihoodsMatchGmmComputeLikes(t *testing.T) {
	dir := shareddata.Dir(t, "kaldi-mini")
	m, err := ReadModel("testdata/mono.mdl")
	if err != nil {
		t.Fatal(err)
	}
	feats, err := kaldiio.OpenSequentialReader("ark:"+filepath.Join(dir, "golden/test5_feats.ark"), kaldiio.MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer feats.Close()
	want, err := kaldiio.OpenRandomAccessReader("ark:"+filepath.Join(dir, "golden/test5_loglikes.ark"), kaldiio.MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	defer want.Close()
	var out kaldiio.Matrix
	n, worst, worstRel := 0, 0.0, 0.0
	for feats.Next() {
		x := feats.Value()
		if err := m.AM.LogLikelihoods(&x, &out); err != nil {
			t.Fatal(err)
		}
		w, err := want.Value(feats.Key())
		if err != nil {
			t.Fatal(err)
		}
		if w.Rows != out.Rows || w.Cols != out.Cols {
			t.Fatalf("%s: %d×%d, Kaldi %d×%d", feats.Key(), out.Rows, out.Cols, w.Rows, w.Cols)
		}
		for i, v := range out.Data {
			d := math.Abs(float64(v - w.Data[i]))
			worst = max(worst, d)
			worstRel = max(worstRel, d/(1+math.Abs(float64(w.Data[i]))))
			if d > 1e-3*(1+math.Abs(float64(w.Data[i]))) {
				t.Errorf("%s frame %d pdf %d: %g, Kaldi %g", feats.Key(), i/out.Cols, i%out.Cols, v, w.Data[i])
				return
			}
		}
		n++
	}
	if err := feats.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 5 {
		t.Errorf("%d utterances, want 5", n)
	}
	t.Logf("largest difference from Kaldi: %.3g absolute, %.3g relative", worst, worstRel)
}
