package strodehead

import (
	"github.com/strode-asr/strode/internal/figure/figuretest"
	"path/filepath"
	"testing"
)

func TestTrajectoryFigure(t *testing.T) {
	tr := &Trajectory{Utt: "u1", Frame: 7, TTilde: 0.5, Label: 3, Times: []float64{0, 0.25, 0.5, 0.75, 1},
		Probs: map[string][]float64{"3": {0.5, 0.6, 0.7, 0.75, 0.8}, "1": {0.3, 0.2, 0.2, 0.1, 0.1}, "9": {0.1, 0.1, 0.05, 0.05, 0.05}},
		Shown: []int{3, 1, 9}}
	base := filepath.Join(t.TempDir(), "u1_7")
	if err := tr.WritePNG(base + ".png"); err != nil {
		t.Fatal(err)
	}
	figuretest.Check(t, base, 700, 450)
}
