package figure

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// DPI of the PNGs: a figure of w × h inches is 100·w × 100·h pixels.
const DPI = 100

// Palette is matplotlib's "tab10" (colour-blind friendlier than pure
// primaries): blue, orange, green, red, purple, brown, pink, grey, olive, cyan.
var Palette = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255},
	{140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255}, {188, 189, 34, 255}, {23, 190, 207, 255},
}

// Color is Palette[i], cycled.
func Color(i int) color.RGBA { return Palette[i%len(Palette)] }

// Grey is the colour of reference lines (a diagonal, a marker of t~).
var Grey = color.RGBA{110, 110, 110, 255}

// New returns a plot with the house style: a title, axis labels (say the
// unit: "cross-entropy per frame (nats)"), a light grid under the data and
// the legend at the top right.
func New(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	for _, f := range []*font.Font{&p.Title.TextStyle.Font, &p.X.Label.TextStyle.Font, &p.Y.Label.TextStyle.Font,
		&p.X.Tick.Label.Font, &p.Y.Tick.Label.Font, &p.Legend.TextStyle.Font} {
		f.Variant = "Sans" // Liberation Sans (embedded with gonum/plot); SVG viewers without it fall back to a sans-serif
	}
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = vg.Points(13)
	p.Title.Padding = vg.Points(6)
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	for _, a := range []*plot.Axis{&p.X, &p.Y} {
		a.Padding = 0 // the axes meet at the corner
		a.Label.TextStyle.Font.Size = vg.Points(11)
		a.Tick.Label.Font.Size = vg.Points(10)
	}
	g := plotter.NewGrid()
	g.Vertical.Color = color.Gray{Y: 225}
	g.Horizontal.Color = color.Gray{Y: 225}
	p.Add(g)
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(10)
	p.Legend.Padding = vg.Points(2)
	p.Legend.XOffs = -vg.Points(4)
	p.Legend.YOffs = -vg.Points(4)
	return p
}

// IntegerTicks marks whole numbers only (epochs, counts): about n major
// ticks, never a fractional label.
func IntegerTicks(n int) plot.Ticker {
	return plot.TickerFunc(func(min, max float64) []plot.Tick {
		lo, hi := math.Ceil(min), math.Floor(max)
		if hi < lo {
			return nil
		}
		step := math.Max(1, math.Ceil((hi-lo)/float64(max1(n))))
		var ts []plot.Tick
		for v := lo; v <= hi; v += step {
			ts = append(ts, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', 0, 64)})
		}
		return ts
	})
}

func max1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// Line returns a line with points over xys in colour c (a series of a
// curve plot), dashed when dashed is true.
func Line(xys plotter.XYs, c color.Color, dashed bool) (*plotter.Line, *plotter.Scatter, error) {
	l, s, err := plotter.NewLinePoints(xys)
	if err != nil {
		return nil, nil, err
	}
	l.Color = c
	l.Width = vg.Points(1.6)
	if dashed {
		l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
	}
	s.Color = c
	s.Shape = draw.CircleGlyph{}
	s.Radius = vg.Points(2.5)
	return l, s, nil
}

// Save writes a figure of width × height whose panels are grid (rows of
// plots; a nil cell is left empty) to path: for "x.png" the PNG and x.svg
// beside it, for "x.svg" the SVG alone.
func Save(path string, width, height vg.Length, grid ...[]*plot.Plot) error {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".png":
		if err := write(path, "png", width, height, grid); err != nil {
			return err
		}
		return write(strings.TrimSuffix(path, filepath.Ext(path))+".svg", "svg", width, height, grid)
	case ".svg":
		return write(path, "svg", width, height, grid)
	default:
		return fmt.Errorf("figure: %s: want a .png or .svg name", path)
	}
}

// SVGBeside is the SVG that Save writes beside a PNG path.
func SVGBeside(pngPath string) string {
	return strings.TrimSuffix(pngPath, filepath.Ext(pngPath)) + ".svg"
}

func write(path, format string, width, height vg.Length, grid [][]*plot.Plot) error {
	return atomicfile.Write(path, func(w io.Writer) error { return Draw(w, format, width, height, grid...) })
}

// Draw renders the panels of grid as "png" or "svg" to w.
func Draw(w io.Writer, format string, width, height vg.Length, grid ...[]*plot.Plot) error {
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(DPI))}
	case "svg":
		c = vgsvg.New(width, height)
	default:
		return fmt.Errorf("figure: format %q: want png or svg", format)
	}
	dc := draw.New(c)
	dc.SetColor(color.White) // an opaque background, for viewers that show transparency as black
	dc.Fill(dc.Rectangle.Path())
	rows, cols := len(grid), 0
	for _, r := range grid {
		cols = max(cols, len(r))
	}
	if rows == 0 || cols == 0 {
		return fmt.Errorf("figure: no panels")
	}
	full := make([][]*plot.Plot, rows)
	for i, r := range grid {
		full[i] = make([]*plot.Plot, cols)
		copy(full[i], r)
	}
	pad := vg.Points(10)
	tiles := draw.Tiles{Rows: rows, Cols: cols, PadX: vg.Points(18), PadY: vg.Points(14),
		PadTop: pad, PadBottom: pad, PadLeft: pad, PadRight: pad}
	canvases := plot.Align(full, tiles, dc)
	for i, r := range full {
		for j, p := range r {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
	_, err := c.WriteTo(w)
	return err
}

// AddVLine draws a dotted grey vertical line at x from y0 to y1, with a
// legend entry.
func AddVLine(p *plot.Plot, x, y0, y1 float64, name string) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	if err != nil {
		return err
	}
	l.Color = Grey
	l.Width = vg.Points(1.2)
	l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}
