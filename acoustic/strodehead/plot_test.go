package strodehead

import (
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
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

func TestTrajectoryFigure(t *testing.T) {
	tr := &Trajectory{Utt: "u1", Frame: 7, TTilde: 0.5, Label: 3, Times: []float64{0, 0.25, 0.5, 0.75, 1},
		Probs: map[string][]float64{"3": {0.5, 0.6, 0.7, 0.75, 0.8}, "1": {0.3, 0.2, 0.2, 0.1, 0.1}, "9": {0.1, 0.1, 0.05, 0.05, 0.05}},
		Shown: []int{3, 1, 9}}
	base := filepath.Join(t.TempDir(), "u1_7")
	if err := tr.WritePNG(base + ".png"); err != nil {
		t.Fatal(err)
	}
	checkFigure(t, base, 700, 450)
}
