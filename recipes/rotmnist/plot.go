package rotmnist

import (
	"fmt"
	"image"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/strode-asr/strode/internal/figure"
)

// Strip is what WriteStrip draws for one trained model.
type Strip struct {
	Title    string    // e.g. "strode, hawkes, seed 1"
	Note     string    // second title line of the times panel (CS, gap r)
	Examples []Example // test videos: input, output, target frames
	// Inferred and Angles are every test video's inferred times and true
	// angles, for the times panel.
	Inferred, Angles [][]float64
}

// WriteStrip writes the figure of one model to path (a .png gets the .svg
// beside it): on the left, for each example video three rows of frames —
// the input x_0 … x_{N−1}, the model's outputs (column i predicts
// x_{i+1}; the last column reconstructs x_{N−1}) and their targets; on the
// right, inferred against true times of every test video, each video's
// times min-max normalised to [0, 1] (index models lie on a staircase).
func WriteStrip(path string, s Strip) error {
	frames := figure.New(s.Title+"\ninput / output / target, test videos", "frame i (output i predicts frame i+1)", "")
	var rows []string
	for range s.Examples {
		rows = append(rows, "input", "output", "target")
	}
	n := 0
	if len(s.Examples) > 0 {
		n = len(s.Examples[0].Input)
	}
	r := len(rows)
	for k, e := range s.Examples {
		for j, set := range [][][]float64{e.Input, e.Output, e.Target} {
			y := float64(r - 3*k - j - 1)
			for i, f := range set {
				frames.Add(plotter.NewImage(grey(f), float64(i)+0.03, y+0.03, float64(i)+0.97, y+0.97))
			}
		}
	}
	frames.X.Min, frames.X.Max, frames.Y.Min, frames.Y.Max = 0, float64(max(n, 1)), 0, float64(max(r, 1))
	frames.X.Tick.Marker = centred(n, func(i int) string { return fmt.Sprint(i) })
	frames.Y.Tick.Marker = centred(r, func(i int) string { return fmt.Sprintf("%d %s", (r-1-i)/3+1, rows[r-1-i]) })

	times := figure.New("inferred vs true times (test set)\n"+s.Note, "true time (normalised per video)", "inferred time (normalised per video)")
	diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
	if err != nil {
		return err
	}
	diag.Color = figure.Grey
	diag.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	times.Add(diag)
	var pts plotter.XYs
	for v := range s.Inferred {
		if v >= len(s.Angles) || len(s.Inferred[v]) != len(s.Angles[v]) || len(s.Inferred[v]) == 0 {
			continue
		}
		inf, tru := minMax(s.Inferred[v]), minMax(s.Angles[v])
		for i := range inf {
			pts = append(pts, plotter.XY{X: tru[i], Y: inf[i]})
		}
	}
	if len(pts) > 0 {
		sc, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		c := figure.Color(0)
		sc.GlyphStyle = draw.GlyphStyle{Color: color.NRGBA{c.R, c.G, c.B, 90}, Radius: vg.Points(1.6), Shape: draw.CircleGlyph{}}
		times.Add(sc)
		times.Legend.Add("frame (test set)", sc)
	}
	times.Legend.Add("perfect inference", diag)
	times.Legend.Top = false
	times.X.Min, times.X.Max, times.Y.Min, times.Y.Max = -0.02, 1.02, -0.02, 1.02
	return figure.Save(path, 11*vg.Inch, 5.6*vg.Inch, []*plot.Plot{frames, times})
}

// centred puts tick labels at the centres i + 0.5 of n unit cells.
func centred(n int, label func(i int) string) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		var ts []plot.Tick
		for i := 0; i < n; i++ {
			ts = append(ts, plot.Tick{Value: float64(i) + 0.5, Label: label(i)})
		}
		return ts
	})
}

// grey is a 64×64 frame (values clamped to [0, 1]) as an image, white ink
// on black as the data.
func grey(f []float64) image.Image {
	side := int(math.Sqrt(float64(len(f))))
	img := image.NewGray(image.Rect(0, 0, side, side))
	for i, v := range f[:side*side] {
		img.Pix[i] = uint8(math.Round(255 * math.Max(0, math.Min(1, v))))
	}
	return img
}

// minMax rescales xs to [0, 1] (all zeros if xs is constant).
func minMax(xs []float64) []float64 {
	lo, hi := xs[0], xs[0]
	for _, x := range xs {
		lo, hi = math.Min(lo, x), math.Max(hi, x)
	}
	out := make([]float64, len(xs))
	if hi > lo {
		for i, x := range xs {
			out[i] = (x - lo) / (hi - lo)
		}
	}
	return out
}
