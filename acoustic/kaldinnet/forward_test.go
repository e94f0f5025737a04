package kaldinnet

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/decoder/priors"
	"github.com/strode-asr/strode/kaldiio"
)

func tinyModelFile(t *testing.T, rawDim, pdfs int) *am.File {
	o, _ := am.Preset("small")
	o.Kind = am.KindSTRODE
	o.SRU = sru.Options{Hidden: 8, Layers: 1, Activation: sru.Identity}
	o.ODEState, o.ODEHidden, o.PhiHidden, o.PriorHidden = 4, 4, 4, 4
	p := am.Pipeline{RawDim: rawDim, CMVN: am.CMVNUtterance, NormMeans: true, SpliceLeft: 1, SpliceRight: 1}
	o.InputDim, o.NumPdfs = p.InputDim(), pdfs
	m, err := am.New(o, 1)
	if err != nil {
		t.Fatal(err)
	}
	return &am.File{Model: m, Pipeline: p}
}

// TestForwardModes runs forward on Kaldi's MFCCs: softmax rows sum to 1,
// --apply-log gives their logs, --no-softmax with --apply-log is refused,
// features of another dimension are refused, priors of another length too.
func TestForwardModes(t *testing.T) {
	d := mini(t)
	feats := "ark:" + filepath.Join(d, "golden/test5_mfcc.ark")
	dir := t.TempDir()
	f := tinyModelFile(t, 13, 62)
	noLog := func(string, ...any) {}
	read := func(path string) map[string]kaldiio.Matrix {
		sr, err := kaldiio.OpenSequentialReader("ark:"+path, kaldiio.MatrixCodec)
		if err != nil {
			t.Fatal(err)
		}
		defer sr.Close()
		out := map[string]kaldiio.Matrix{}
		for sr.Next() {
			m := sr.Value()
			out[sr.Key()] = kaldiio.Matrix{Rows: m.Rows, Cols: m.Cols, Data: append([]float32(nil), m.Data...)}
		}
		return out
	}
	o := ForwardOptions{Prior: priors.DefaultOptions()}
	if n, err := Forward(f, o, feats, "ark:"+filepath.Join(dir, "post.ark"), noLog); err != nil || n != 5 {
		t.Fatalf("forward: %d done, %v", n, err)
	}
	o.Output.ApplyLog = true
	if _, err := Forward(f, o, feats, "ark:"+filepath.Join(dir, "logpost.ark"), noLog); err != nil {
		t.Fatal(err)
	}
	post, logpost := read(filepath.Join(dir, "post.ark")), read(filepath.Join(dir, "logpost.ark"))
	for k, m := range post {
		m := m
		if m.Cols != 62 {
			t.Fatalf("%s: %d columns", k, m.Cols)
		}
		for r := 0; r < m.Rows; r++ {
			s := 0.0
			for c := 0; c < m.Cols; c++ {
				s += float64(m.At(r, c))
				lm := logpost[k]
				if lp := lm.At(r, c); m.At(r, c) > 1e-30 && math.Abs(math.Log(float64(m.At(r, c)))-float64(lp)) > 1e-4 {
					t.Fatalf("%s (%d,%d): log of softmax %g, --apply-log %g", k, r, c, math.Log(float64(m.At(r, c))), lp)
				}
			}
			if math.Abs(s-1) > 1e-5 {
				t.Fatalf("%s row %d sums to %g", k, r, s)
			}
		}
	}
	o.Output.NoSoftmax = true
	if _, err := Forward(f, o, feats, "ark:/dev/null", noLog); err == nil || !strings.Contains(err.Error(), "--apply-log") {
		t.Fatalf("--apply-log with --no-softmax: %v", err)
	}
	// A model trained on 20-dimensional features refuses 13-dimensional ones.
	if _, err := Forward(tinyModelFile(t, 20, 62), ForwardOptions{Prior: priors.DefaultOptions()}, feats, "ark:/dev/null", noLog); err == nil ||
		!strings.Contains(err.Error(), "dimension 13") {
		t.Fatalf("mismatched features: %v", err)
	}
	// Counts of another length are an error.
	counts := filepath.Join(dir, "counts")
	os.WriteFile(counts, []byte("[ 1 2 3 ]\n"), 0o644)
	o = ForwardOptions{Prior: priors.DefaultOptions()}
	o.Prior.ClassFrameCounts = counts
	if _, err := Forward(f, o, feats, "ark:/dev/null", noLog); !errors.Is(err, priors.ErrDimension) {
		t.Fatalf("counts of length 3 for 62 outputs: %v", err)
	}
}
