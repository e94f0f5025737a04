package features

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/kaldiio"
)

// compute-cmvn-stats --weights as Kaldi's AccCmvnStats with weights: weight
// 1 everywhere gives the unweighted stats, 0/1 weights the stats of the
// weighted frames, 0.5 everywhere exactly half (halving commutes with float
// rounding); missing or wrong-length weights are warnings and errors counted.
// Global stats are written as a float matrix, as Kaldi's.
func TestComputeCmvnStatsWeights(t *testing.T) {
	dir := t.TempDir()
	feats := readMatrices(t, "ark:testdata/fbank23_8k.ark")
	if len(feats) == 0 {
		t.Fatal("no features in testdata/fbank23_8k.ark")
	}
	m := feats[0]
	key := "s_utt5_8k"
	featArk := filepath.Join(dir, "feats.ark")
	fw, err := kaldiio.OpenTableWriter("ark:"+featArk, kaldiio.MatrixCodec)
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(key, m)
	fw.Write("nowt", m)
	fw.Write("short", m)
	fw.Close()
	stats := func(weights []float32) kaldiio.DoubleMatrix {
		t.Helper()
		wark := filepath.Join(dir, "w.ark")
		ww, _ := kaldiio.OpenTableWriter("ark,t:"+wark, kaldiio.VectorCodec)
		ww.Write(key, kaldiio.Vector(weights))
		ww.Write("short", kaldiio.Vector(weights[:3]))
		ww.Close()
		out := filepath.Join(dir, "stats.ark")
		log := &testLog{}
		done, failed, err := ComputeCmvnStatsTableWeighted("ark:"+featArk, "ark:"+out, "", "ark:"+wark, true, log)
		if err != nil || done != 1 || failed != 2 || len(log.warnings) != 2 {
			t.Fatalf("done %d failed %d warnings %q: %v", done, failed, log.warnings, err)
		}
		sr, _ := kaldiio.OpenSequentialReader("ark:"+out, kaldiio.DoubleMatrixCodec)
		defer sr.Close()
		if !sr.Next() || sr.Key() != key {
			t.Fatalf("no stats for %s", key)
		}
		v := sr.Value()
		return kaldiio.DoubleMatrix{Rows: v.Rows, Cols: v.Cols, Data: append([]float64(nil), v.Data...)}
	}
	plain := NewCmvnStats(m.Cols)
	AccCmvnStats(plain, m.Data, m.Rows, m.Cols)
	ones := make([]float32, m.Rows)
	halves := make([]float32, m.Rows)
	alternate := make([]float32, m.Rows)
	for i := range ones {
		ones[i], halves[i], alternate[i] = 1, 0.5, float32(i%2)
	}
	odd := NewCmvnStats(m.Cols)
	for r := 1; r < m.Rows; r += 2 {
		AccCmvnStats(odd, m.Data[r*m.Cols:(r+1)*m.Cols], 1, m.Cols)
	}
	for _, c := range []struct {
		name    string
		weights []float32
		want    []float64
		scale   float64
	}{
		{"ones", ones, plain, 1},
		{"halves", halves, plain, 0.5},
		{"alternate", alternate, odd, 1},
	} {
		got := stats(c.weights)
		for i, v := range got.Data {
			if v != c.want[i]*c.scale {
				t.Fatalf("%s: stats[%d] = %v, want %v", c.name, i, v, c.want[i]*c.scale)
			}
		}
	}
	// Global stats: a float matrix (FM), as Kaldi writes Matrix<float>.
	global := filepath.Join(dir, "global.mat")
	if _, _, err := ComputeCmvnStatsTable("ark:"+featArk, global, "", true, &testLog{}); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(global)
	if !bytes.HasPrefix(b, []byte("\x00BFM ")) {
		t.Fatalf("global stats start %q, want a binary float matrix", b[:min(6, len(b))])
	}
	if _, _, err := ComputeCmvnStatsTableWeighted("ark:"+featArk, "ark:/dev/null", "", "ark:"+filepath.Join(dir, "missing.ark"), true, &testLog{}); err == nil || !strings.Contains(err.Error(), "missing.ark") {
		t.Fatalf("missing weights archive: %v", err)
	}
}
