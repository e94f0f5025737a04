package sine

import (
	"image/color"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/strode-asr/strode/internal/figure"
)

// Panel is one scatter panel: inferred vs true times of a model.
type Panel struct {
	Name            string
	Note            string // a second title line (e.g. the seed's CS and gap r); "" none
	Inferred, Truth [][]float64
}

// WriteScatter writes the figure of inferred vs true boundary times to
// path (a .png gets the .svg of the same figure beside it): one square
// panel per model, left to right, x the true time and y the inferred time,
// both min-max normalised per sequence to [0, 1] as in the paper's
// Figure 2, one point per boundary of every test sequence; the dashed grey
// diagonal is a perfect inference.
func WriteScatter(path string, panels []Panel) error {
	row := make([]*plot.Plot, len(panels))
	for k, pn := range panels {
		title := pn.Name
		if pn.Note != "" {
			title += "\n" + pn.Note
		}
		p := figure.New(title, "true time (normalised per sequence)", "inferred time (normalised per sequence)")
		var pts plotter.XYs
		for s := range pn.Inferred {
			if s >= len(pn.Truth) || len(pn.Inferred[s]) == 0 || len(pn.Inferred[s]) != len(pn.Truth[s]) {
				continue
			}
			inf, tru := minMax(pn.Inferred[s]), minMax(pn.Truth[s])
			for i := range inf {
				pts = append(pts, plotter.XY{X: tru[i], Y: inf[i]})
			}
		}
		diag, err := plotter.NewLine(plotter.XYs{{X: 0, Y: 0}, {X: 1, Y: 1}})
		if err != nil {
			return err
		}
		diag.Color = figure.Grey
		diag.Width = vg.Points(1.2)
		diag.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		p.Add(diag)
		if len(pts) > 0 {
			sc, err := plotter.NewScatter(pts)
			if err != nil {
				return err
			}
			c := figure.Color(k)
			sc.GlyphStyle = draw.GlyphStyle{Color: color.NRGBA{c.R, c.G, c.B, 150}, Radius: vg.Points(1.8), Shape: draw.CircleGlyph{}}
			p.Add(sc)
			p.Legend.Add("boundary (test set)", sc)
		}
		p.Legend.Add("perfect inference", diag)
		p.Legend.Top = false // bottom right: below the diagonal, the emptiest corner
		p.Legend.YOffs = vg.Points(4)
		p.X.Min, p.X.Max, p.Y.Min, p.Y.Max = -0.02, 1.02, -0.02, 1.02
		row[k] = p
	}
	if len(row) == 0 {
		row = []*plot.Plot{figure.New("no models", "true time (normalised per sequence)", "inferred time (normalised per sequence)")}
	}
	return figure.Save(path, vg.Length(len(row))*4.6*vg.Inch, 4.9*vg.Inch, row)
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
