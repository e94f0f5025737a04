package kaldinnet

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// TestInitModel: --init-model takes the stored model's parameters when its
// pipeline and output size fit, and refuses another pipeline or pdf count
// with ErrInitModel.
func TestInitModel(t *testing.T) {
	f := tinyModelFile(t, 13, 62)
	path := filepath.Join(t.TempDir(), "init.am")
	if err := f.Save(path); err != nil {
		t.Fatal(err)
	}
	p := f.Pipeline
	p.Features = "compute-mfcc-feats" // the description alone may differ
	m, err := initModel(path, p, 62)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := m.Checksum(), f.Model.Checksum(); a != b {
		t.Errorf("loaded parameters %s, saved %s", a, b)
	}
	for _, c := range []struct {
		name string
		p    am.Pipeline
		pdfs int
	}{
		{"splice", am.Pipeline{RawDim: 13, CMVN: am.CMVNUtterance, NormMeans: true, SpliceLeft: 2, SpliceRight: 2}, 62},
		{"cmvn", am.Pipeline{RawDim: 13, CMVN: am.CMVNTable, NormMeans: true, SpliceLeft: 1, SpliceRight: 1}, 62},
		{"pdfs", f.Pipeline, 63},
	} {
		if _, err := initModel(path, c.p, c.pdfs); !errors.Is(err, ErrInitModel) {
			t.Errorf("%s: got %v, want ErrInitModel", c.name, err)
		}
	}
}

// TestInitModelAndEncoderExclusive: --init-model takes the whole model, so
// --init-encoder with it is refused before anything is read.
func TestInitModelAndEncoderExclusive(t *testing.T) {
	_, err := Train(TrainSetup{InitModel: "a.am", InitEncoder: "b.am"}, "out.am", func(string, ...any) {}, nil)
	if err == nil || !strings.Contains(err.Error(), "exclude each other") {
		t.Errorf("got %v, want the options refused together", err)
	}
}
