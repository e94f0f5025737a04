package latency

import (
	"fmt"
	"image/color"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/strode-asr/strode/internal/figure"
)

// SaveFigure draws WER (mean ± s.e. over seeds) against mean look-ahead in
// frames to path (a .png, with the .svg beside it, or an .svg): the fixed
// look-ahead rows joined as one line, each learned row a labelled point
// with a dotted whisker from its mean look-ahead to its p95.
func SaveFigure(path string, rows []*Row) error {
	p := figure.New(fmt.Sprintf("WER against look-ahead (%s)", rows[0].Set),
		"look-ahead, mean over frames (frames of 10 ms)", "%WER (mean ± s.e. over seeds)")
	var fixed, learned []*Row
	for _, r := range ordered(rows) {
		if r.Learned() {
			learned = append(learned, r)
		} else {
			fixed = append(fixed, r)
		}
	}
	xy := func(rs []*Row) plotter.XYs {
		out := make(plotter.XYs, len(rs))
		for i, r := range rs {
			out[i] = plotter.XY{X: r.Look.Mean(), Y: r.WER.Mean}
		}
		return out
	}
	if len(fixed) > 0 {
		l, s, err := figure.Line(xy(fixed), figure.Color(0), false)
		if err != nil {
			return err
		}
		if err := errorBars(p, fixed, figure.Color(0)); err != nil {
			return err
		}
		p.Add(l, s)
		p.Legend.Add("fixed delay", l, s)
		if err := labels(p, fixed, 0); err != nil {
			return err
		}
	}
	if len(learned) > 0 {
		c := figure.Color(1)
		for _, r := range learned {
			w, err := plotter.NewLine(plotter.XYs{{X: r.Look.Mean(), Y: r.WER.Mean}, {X: float64(r.Look.Percentile(0.95)), Y: r.WER.Mean}})
			if err != nil {
				return err
			}
			w.Color, w.Width, w.Dashes = c, vg.Points(1), []vg.Length{vg.Points(2), vg.Points(2)}
			p.Add(w)
		}
		s, err := plotter.NewScatter(xy(learned))
		if err != nil {
			return err
		}
		s.Color, s.Shape, s.Radius = c, draw.BoxGlyph{}, vg.Points(3.5)
		if err := errorBars(p, learned, c); err != nil {
			return err
		}
		p.Add(s)
		p.Legend.Add("learned look-ahead (dotted: to p95)", s)
		if err := labels(p, learned, 1); err != nil {
			return err
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, r := range rows {
		d := 0.0
		if !math.IsNaN(r.WER.SE) {
			d = r.WER.SE
		}
		lo, hi = math.Min(lo, r.WER.Mean-d), math.Max(hi, r.WER.Mean+d)
	}
	pad := math.Max(0.5, 0.15*(hi-lo))
	p.Y.Min, p.Y.Max = lo-pad, hi+2.5*pad // room for the legend
	p.X.Min = math.Min(0, p.X.Min)
	p.X.Max += 0.5
	return figure.Save(path, 7*vg.Inch, 4.8*vg.Inch, []*plot.Plot{p})
}

// errorBars adds ± s.e. bars (rows with one seed have none).
func errorBars(p *plot.Plot, rows []*Row, c color.Color) error {
	var e errPoints
	for _, r := range rows {
		if r.WER.N > 1 && !math.IsNaN(r.WER.SE) {
			e = append(e, errPoint{r.Look.Mean(), r.WER.Mean, r.WER.SE})
		}
	}
	if len(e) == 0 {
		return nil
	}
	b, err := plotter.NewYErrorBars(e)
	if err != nil {
		return err
	}
	b.Color = c
	b.Width = vg.Points(1.2)
	p.Add(b)
	return nil
}

// labels writes each row's label beside its point.
func labels(p *plot.Plot, rows []*Row, k int) error {
	l := plotter.XYLabels{}
	for _, r := range rows {
		l.XYs = append(l.XYs, plotter.XY{X: r.Look.Mean(), Y: r.WER.Mean})
		l.Labels = append(l.Labels, r.Label)
	}
	ls, err := plotter.NewLabels(l)
	if err != nil {
		return err
	}
	for i := range ls.TextStyle {
		ls.TextStyle[i].Font.Size = vg.Points(8)
		ls.TextStyle[i].Font.Variant = "Sans" // as figure.New's
		ls.TextStyle[i].Color = figure.Color(k)
	}
	ls.Offset = vg.Point{X: vg.Points(5), Y: vg.Points(3)}
	p.Add(ls)
	return nil
}

type errPoint struct{ x, y, e float64 }
type errPoints []errPoint

func (e errPoints) Len() int                        { return len(e) }
func (e errPoints) XY(i int) (float64, float64)     { return e[i].x, e[i].y }
func (e errPoints) YError(i int) (float64, float64) { return e[i].e, e[i].e }
