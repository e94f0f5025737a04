package trainer

import (
	"github.com/strode-asr/strode/internal/figure/figuretest"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

func TestPlotHistory(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		h    []am.Epoch
	}{
		{"none", nil},
		{"one", []am.Epoch{{Epoch: 1, TrainCE: 2, ValidCE: 2.5, TrainAcc: 0.3, ValidAcc: 0.25}}},
		{"four", []am.Epoch{
			{Epoch: 1, TrainCE: 3.1, ValidCE: 2.4, TrainAcc: 0.2, ValidAcc: 0.3, Accepted: true},
			{Epoch: 2, TrainCE: 2.0, ValidCE: 1.8, TrainAcc: 0.45, ValidAcc: 0.5, Accepted: true},
			{Epoch: 3, TrainCE: 1.5, ValidCE: 1.9, TrainAcc: 0.6, ValidAcc: 0.48},
			{Epoch: 4, TrainCE: 1.2, ValidCE: 1.85, TrainAcc: 0.7, ValidAcc: 0.49},
		}},
	} {
		base := filepath.Join(dir, tc.name)
		if err := PlotHistory(base+".png", tc.h); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		figuretest.Check(t, base, 700, 750)
	}
	if got := bestEpoch([]am.Epoch{{ValidCE: 2}, {ValidCE: 1}, {ValidCE: 1.5}}); got != 1 {
		t.Errorf("bestEpoch = %d, want 1", got)
	}
}
