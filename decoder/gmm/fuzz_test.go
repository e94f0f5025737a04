package gmm

import (
	"bytes"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

// smallAM is a two-pdf model in both formats, as fuzzing seeds.
func smallAM(t testing.TB, binary bool) []byte {
	am := AmDiagGmm{Dim: 2, Pdfs: []DiagGmm{
		{Dim: 2, Weights: []float32{0.4, 0.6}, MeansInvVars: []float32{1, -2, 0.5, 0}, InvVars: []float32{1, 2, 4, 0.5}},
		{Dim: 2, Weights: []float32{1}, MeansInvVars: []float32{0, 3}, InvVars: []float32{1, 1}},
	}}
	for i := range am.Pdfs {
		if _, err := am.Pdfs[i].ComputeGconsts(); err != nil {
			t.Fatal(err)
		}
	}
	var buf bytes.Buffer
	w := kaldiio.NewWriter(&buf)
	if binary {
		w.WriteBinaryHeader()
	}
	if err := AmDiagGmmCodec.Write(w, binary, &am); err != nil {
		t.Fatal(err)
	}
	w.Flush()
	return buf.Bytes()
}

// FuzzAmDiagGmm: any bytes either fail to read with an error or give a
// model that evaluates and writes without panicking.
func FuzzAmDiagGmm(f *testing.F) {
	f.Add(smallAM(f, true))
	f.Add(smallAM(f, false))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := kaldiio.NewReader(bytes.NewReader(data), "fuzz")
		binary, err := r.ReadBinaryHeader()
		if err != nil {
			return
		}
		var am AmDiagGmm
		if AmDiagGmmCodec.Read(r, binary, &am) != nil {
			return
		}
		feats := kaldiio.Matrix{Rows: 2, Cols: am.Dim, Data: make([]float32, 2*am.Dim)}
		var out kaldiio.Matrix
		if err := am.LogLikelihoods(&feats, &out); err != nil {
			t.Fatal(err)
		}
		var buf bytes.Buffer
		if err := AmDiagGmmCodec.Write(kaldiio.NewWriter(&buf), binary, &am); err != nil {
			t.Fatal(err)
		}
	})
}
