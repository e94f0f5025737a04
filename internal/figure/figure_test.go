package figure

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
)

func testPlot(t *testing.T) *plot.Plot {
	t.Helper()
	p := New("title", "x (s)", "y (%)")
	l, s, err := Line(plotter.XYs{{X: 1, Y: 2}, {X: 2, Y: 3}, {X: 3, Y: 1}}, Color(0), false)
	if err != nil {
		t.Fatal(err)
	}
	p.Add(l, s)
	p.Legend.Add("series", l, s)
	return p
}

// checkPNG decodes the PNG at path and checks its size in pixels.
func checkPNG(t *testing.T, path string, w, h int) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		t.Errorf("%s: %d×%d pixels, want %d×%d", path, b.Dx(), b.Dy(), w, h)
	}
}

// checkSVG checks that path is an SVG document of the given size in points.
func checkSVG(t *testing.T, path string, wPt, hPt string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if !strings.Contains(s, "<svg") || !strings.HasSuffix(strings.TrimSpace(s), "</svg>") {
		t.Errorf("%s is not a complete SVG document", path)
	}
	if !strings.Contains(s, `width="`+wPt+`"`) || !strings.Contains(s, `height="`+hPt+`"`) {
		t.Errorf("%s: want width %s and height %s; head: %.300s", path, wPt, hPt, s)
	}
}

func TestSave(t *testing.T) {
	dir := t.TempDir()
	png1 := filepath.Join(dir, "a.png")
	if err := Save(png1, 5*vg.Inch, 3*vg.Inch, []*plot.Plot{testPlot(t), testPlot(t)}, []*plot.Plot{testPlot(t), nil}); err != nil {
		t.Fatal(err)
	}
	checkPNG(t, png1, 500, 300)
	if SVGBeside(png1) != filepath.Join(dir, "a.svg") {
		t.Errorf("SVGBeside(%s) = %s", png1, SVGBeside(png1))
	}
	checkSVG(t, filepath.Join(dir, "a.svg"), "360pt", "216pt")

	svg := filepath.Join(dir, "b.svg")
	if err := Save(svg, 4*vg.Inch, 2*vg.Inch, []*plot.Plot{testPlot(t)}); err != nil {
		t.Fatal(err)
	}
	checkSVG(t, svg, "288pt", "144pt")
	if _, err := os.Stat(filepath.Join(dir, "b.png")); err == nil {
		t.Error("an .svg name wrote a PNG too")
	}
	if err := Save(filepath.Join(dir, "c.jpg"), vg.Inch, vg.Inch, []*plot.Plot{testPlot(t)}); err == nil {
		t.Error("a .jpg name: no error")
	}
	if err := Draw(&bytes.Buffer{}, "png", vg.Inch, vg.Inch); err == nil {
		t.Error("no panels: no error")
	}
	ents, _ := os.ReadDir(dir)
	if len(ents) != 3 {
		t.Errorf("%d files in the directory (temporaries left?), want a.png a.svg b.svg", len(ents))
	}
}

func TestIntegerTicks(t *testing.T) {
	for _, tc := range []struct {
		min, max float64
		n        int
		want     string
	}{
		{0.7, 3.3, 10, "1 2 3"},
		{0, 40, 4, "0 10 20 30 40"},
		{1.2, 1.8, 5, ""},
		{1, 1, 5, "1"},
	} {
		var got []string
		for _, tk := range IntegerTicks(tc.n).Ticks(tc.min, tc.max) {
			got = append(got, tk.Label)
		}
		if strings.Join(got, " ") != tc.want {
			t.Errorf("IntegerTicks(%d).Ticks(%g, %g) = %q, want %q", tc.n, tc.min, tc.max, strings.Join(got, " "), tc.want)
		}
	}
}
