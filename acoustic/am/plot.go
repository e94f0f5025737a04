package am

import (
	"image"
	"image/color"
	"image/png"
	"io"
	"math"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// PlotHistory writes the training curves as a PNG (written to a temporary
// name and renamed): the top panel is the cross-entropy per frame, the
// bottom panel the frame accuracy (0 … 100 %), each against the epoch;
// blue is the training set, red the held-out set, grey grid lines mark
// epochs. Epoch 0 is not plotted.
func PlotHistory(path string, h []Epoch) error {
	const w, ph, pad = 640, 220, 20
	img := image.NewRGBA(image.Rect(0, 0, w, 2*ph))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	blue := color.RGBA{30, 90, 200, 255}
	red := color.RGBA{200, 40, 40, 255}
	grey := color.RGBA{200, 200, 200, 255}
	black := color.RGBA{0, 0, 0, 255}
	n := len(h)
	xOf := func(i int) int {
		if n <= 1 {
			return pad
		}
		return pad + i*(w-2*pad)/(n-1)
	}
	panel := func(top int, lo, hi float64, series [2]func(Epoch) float64) {
		if hi <= lo {
			hi = lo + 1
		}
		yOf := func(v float64) int {
			return top + ph - pad - int((v-lo)/(hi-lo)*float64(ph-2*pad))
		}
		for i := 0; i < n; i++ {
			line(img, xOf(i), top+pad, xOf(i), top+ph-pad, grey)
		}
		line(img, pad, top+ph-pad, w-pad, top+ph-pad, black)
		line(img, pad, top+pad, pad, top+ph-pad, black)
		for k, c := range []color.RGBA{blue, red} {
			for i := 1; i < n; i++ {
				line(img, xOf(i-1), yOf(series[k](h[i-1])), xOf(i), yOf(series[k](h[i])), c)
			}
			for i := 0; i < n; i++ {
				x, y := xOf(i), yOf(series[k](h[i]))
				for dx := -2; dx <= 2; dx++ {
					for dy := -2; dy <= 2; dy++ {
						img.Set(x+dx, y+dy, c)
					}
				}
			}
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range h {
		lo = math.Min(lo, math.Min(e.TrainCE, e.ValidCE))
		hi = math.Max(hi, math.Max(e.TrainCE, e.ValidCE))
	}
	if n == 0 {
		lo, hi = 0, 1
	}
	panel(0, math.Min(lo, 0), hi, [2]func(Epoch) float64{func(e Epoch) float64 { return e.TrainCE }, func(e Epoch) float64 { return e.ValidCE }})
	panel(ph, 0, 1, [2]func(Epoch) float64{func(e Epoch) float64 { return e.TrainAcc }, func(e Epoch) float64 { return e.ValidAcc }})
	return writePNG(path, img)
}

func line(img *image.RGBA, x0, y0, x1, y1 int, c color.RGBA) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	e := dx + dy
	for {
		img.Set(x0, y0, c)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// writePNG encodes img to path through a temporary file in the same
// directory and a rename.
func writePNG(path string, img image.Image) error {
	return atomicfile.Write(path, func(w io.Writer) error { return png.Encode(w, img) })
}
