// Package figuretest checks the figures that internal/figure saves, for the
// tests of the packages that draw them.
package figuretest

import (
	"image/png"
	"os"
	"strings"
	"testing"
)

// Check checks that base.png is a PNG of w×h pixels and base.svg an
// SVG document beside it.
func Check(t testing.TB, base string, w, h int) {
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
