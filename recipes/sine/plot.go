package sine

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
)

// Panel is one scatter panel: inferred vs true times of a model.
type Panel struct {
	Name            string
	Inferred, Truth [][]float64
}

var panelColors = []color.RGBA{{31, 119, 180, 255}, {214, 39, 40, 255}, {44, 160, 44, 255}}

// WriteScatter writes a PNG with one square panel per model, left to right:
// x is the true time, y the inferred time, both min-max normalised per
// sequence to [0, 1] as in the paper's Figure 2; the grey diagonal is a
// perfect inference. Colours: blue, red, green in panel order.
func WriteScatter(path string, panels []Panel) error {
	const size, margin = 320, 20
	img := image.NewRGBA(image.Rect(0, 0, len(panels)*(size+margin)+margin, size+2*margin))
	fill(img, img.Bounds(), color.RGBA{255, 255, 255, 255})
	grey := color.RGBA{180, 180, 180, 255}
	for p, pn := range panels {
		x0, y0 := margin+p*(size+margin), margin
		for i := 0; i <= size; i++ { // frame and diagonal
			img.Set(x0+i, y0, grey)
			img.Set(x0+i, y0+size, grey)
			img.Set(x0, y0+i, grey)
			img.Set(x0+size, y0+i, grey)
			img.Set(x0+i, y0+size-i, grey)
		}
		c := panelColors[p%len(panelColors)]
		for s := range pn.Inferred {
			inf, tru := minMax(pn.Inferred[s]), minMax(pn.Truth[s])
			for i := range inf {
				px := x0 + int(tru[i]*float64(size))
				py := y0 + size - int(inf[i]*float64(size))
				fill(img, image.Rect(px-1, py-1, px+2, py+2), c)
			}
		}
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		return err
	}
	return writeAtomic(path, buf.Bytes())
}

func fill(img *image.RGBA, r image.Rectangle, c color.RGBA) {
	r = r.Intersect(img.Bounds())
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			img.SetRGBA(x, y, c)
		}
	}
}

// minMax rescales xs to [0, 1] (all zeros if xs is constant).
func minMax(xs []float64) []float64 {
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = min(lo, x), max(hi, x)
	}
	out := make([]float64, len(xs))
	if hi > lo {
		for i, x := range xs {
			out[i] = (x - lo) / (hi - lo)
		}
	}
	return out
}
