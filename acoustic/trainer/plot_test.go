package trainer

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/am"
)

// checkFigure checks that base.png is a PNG of w×h pixels and base.svg an
// SVG document beside it.
func checkFigure(t *testing.T, base string, w, h int) {
	t.Helper()
	f, err := os.Open(base + ".png")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s.png: %v", base, err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("%s.png: %d×%d pixels, want %d×%d", base, b.Dx(), b.Dy(), w, h)
	}
	svg, err := os.ReadFile(base + ".svg")
	if err != nil {
		t.Fatal(err)
	}
	if s := strings.TrimSpace(string(svg)); !strings.Contains(s, "<svg") || !strings.HasSuffix(s, "</svg>") {
		t.Errorf("%s.svg is not a complete SVG document", base)
	}
}

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
		checkFigure(t, base, 700, 750)
	}
	if got := bestEpoch([]am.Epoch{{ValidCE: 2}, {ValidCE: 1}, {ValidCE: 1.5}}); got != 1 {
		t.Errorf("bestEpoch = %d, want 1", got)
	}
}
