package compare

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/strode-asr/strode/internal/atomicfile"
)

// conditionColors: one colour per condition (matplotlib's tab10), cycled.
var conditionColors = []color.RGBA{
	{31, 119, 180, 255}, {255, 127, 14, 255}, {44, 160, 44, 255}, {214, 39, 40, 255}, {148, 103, 189, 255},
	{140, 86, 75, 255}, {227, 119, 194, 255}, {127, 127, 127, 255}, {188, 189, 34, 255}, {23, 190, 207, 255},
}

// jitterSeed fixes the points' horizontal jitter: the same runs give the same figure.
const jitterSeed = 23

// SaveFigure draws the report (see WriteFigure) to pngPath and, beside it, to
// the same name with ".svg" for ".png"; both are written atomically. It
// returns the SVG's path.
func SaveFigure(pngPath string, rep *Report) (svgPath string, err error) {
	svgPath = strings.TrimSuffix(pngPath, ".png") + ".svg"
	if svgPath == pngPath {
		svgPath = pngPath + ".svg"
	}
	if err := atomicfile.Write(pngPath, func(w io.Writer) error { return WriteFigure(w, rep, "png") }); err != nil {
		return "", err
	}
	if err := atomicfile.Write(svgPath, func(w io.Writer) error { return WriteFigure(w, rep, "svg") }); err != nil {
		return "", err
	}
	return svgPath, nil
}

// WriteFigure draws the report as "png" or "svg": on the left every run's WER
// as a point over its model (jittered, one colour per condition) with the
// model's mean ± s.e.; on the right, when there are pairs, every paired
// difference B − A with the pair's mean and confidence interval.
func WriteFigure(w io.Writer, rep *Report, format string) error {
	if format != "png" && format != "svg" {
		return fmt.Errorf("figure format %q: want png or svg", format)
	}
	if len(rep.Models) == 0 {
		return ErrNoRuns
	}
	conds := conditionOrder(rep)
	left, err := modelPanel(rep, conds)
	if err != nil {
		return err
	}
	row := []*plot.Plot{left}
	width := vg.Length(3.2+1.1*float64(len(rep.Models))) * vg.Inch
	if len(rep.Pairs) > 0 {
		right, err := pairPanel(rep, conds)
		if err != nil {
			return err
		}
		row = append(row, right)
		width += vg.Length(2.4+1.1*float64(len(rep.Pairs))) * vg.Inch
	}
	height := 4.8 * vg.Inch
	var c vg.CanvasWriterTo
	switch format {
	case "png":
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(width, height), vgimg.UseDPI(120))}
	default:
		c = vgsvg.New(width, height)
	}
	dc := draw.New(c)
	tiles := draw.Tiles{Rows: 1, Cols: len(row), PadX: vg.Inch / 3, PadTop: vg.Inch / 8, PadBottom: vg.Inch / 8,
		PadLeft: vg.Inch / 8, PadRight: vg.Inch / 8}
	canvases := plot.Align([][]*plot.Plot{row}, tiles, dc)
	for i, p := range row {
		p.Draw(canvases[0][i])
	}
	_, err = c.WriteTo(w)
	return err
}

// conditionOrder lists the conditions in the order they first appear.
func conditionOrder(rep *Report) map[string]int {
	conds := map[string]int{}
	for _, m := range rep.Models {
		for _, r := range m.Runs {
			if _, ok := conds[r.Condition]; !ok {
				conds[r.Condition] = len(conds)
			}
		}
	}
	return conds
}

// offset places condition c of n within ±0.25 of its column, plus a little
// seeded jitter, so repeated seeds on one condition stay apart.
func offset(c, n int, rng *rand.Rand) float64 {
	return -0.25 + 0.5*(float64(c)+0.5)/float64(n) + (rng.Float64()-0.5)*0.12/float64(max(n, 1))
}

func condColor(c int) color.RGBA { return conditionColors[c%len(conditionColors)] }

// addPoints adds one scatter per condition, coloured by condition (with
// legend entries in the order of conds when legend is set).
func addPoints(p *plot.Plot, conds map[string]int, xys []condXY, legend bool) error {
	names := make([]string, len(conds))
	for name, c := range conds {
		names[c] = name
	}
	for c, name := range names {
		var pts plotter.XYs
		for _, q := range xys {
			if q.cond == c {
				pts = append(pts, plotter.XY{X: q.x, Y: q.y})
			}
		}
		if len(pts) == 0 {
			continue
		}
		s, err := plotter.NewScatter(pts)
		if err != nil {
			return err
		}
		s.GlyphStyle = draw.GlyphStyle{Color: condColor(c), Radius: vg.Points(3.2), Shape: draw.CircleGlyph{}}
		p.Add(s)
		if legend {
			p.Legend.Add(name, s)
		}
	}
	return nil
}

type condXY struct {
	cond int
	x, y float64
}

// meanBars adds, at column i, a black bar at means[i] and whiskers of
// lengths lo[i] below and hi[i] above.
func meanBars(p *plot.Plot, means, lo, hi []float64, label string) error {
	var pts plotter.XYs
	var errs plotter.YErrors
	for i := range means {
		if math.IsNaN(means[i]) {
			continue
		}
		l, h := lo[i], hi[i]
		if math.IsNaN(l) || math.IsNaN(h) {
			l, h = 0, 0 // one run: no spread to show
		}
		pts = append(pts, plotter.XY{X: float64(i), Y: means[i]})
		errs = append(errs, struct{ Low, High float64 }{l, h})
		bar, err := plotter.NewLine(plotter.XYs{{X: float64(i) - 0.32, Y: means[i]}, {X: float64(i) + 0.32, Y: means[i]}})
		if err != nil {
			return err
		}
		bar.LineStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(2)}
		p.Add(bar)
		if i == 0 && label != "" {
			p.Legend.Add(label, bar)
		}
	}
	if len(pts) == 0 {
		return nil
	}
	eb, err := plotter.NewYErrorBars(struct {
		plotter.XYs
		plotter.YErrors
	}{pts, errs})
	if err != nil {
		return err
	}
	eb.LineStyle = draw.LineStyle{Color: color.Black, Width: vg.Points(1.5)}
	eb.CapWidth = vg.Points(10)
	p.Add(eb)
	return nil
}

// padY sets the y range to the values' range widened by 6% on both sides
// (NaNs ignored), so no point sits on the frame.
func padY(p *plot.Plot, values ...float64) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range values {
		if !math.IsNaN(v) {
			lo, hi = math.Min(lo, v), math.Max(hi, v)
		}
	}
	if math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return
	}
	pad := 0.06 * math.Max(hi-lo, 1)
	p.Y.Min, p.Y.Max = lo-pad, hi+pad
}

// niceTicks labels about six round values (steps of 1, 2 or 5 × 10^k) and
// puts an unlabelled tick halfway between them.
func niceTicks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', 4, 64)}}
	}
	raw := (hi - lo) / 6
	mag := math.Pow(10, math.Floor(math.Log10(raw)))
	step := 10 * mag
	for _, m := range []float64{1, 2, 5} {
		if m*mag >= raw {
			step = m * mag
			break
		}
	}
	var ticks []plot.Tick
	for k := math.Ceil(lo/step*2) / 2; k*step <= hi; k += 0.5 {
		v := k * step
		if k == math.Trunc(k) {
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v+0, 'g', 4, 64)})
		} else {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

func newPanel(title, xLabel, yLabel string) *plot.Plot {
	p := plot.New()
	p.Y.Tick.Marker = plot.TickerFunc(niceTicks)
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = yLabel
	p.Add(plotter.NewGrid())
	return p
}

func modelPanel(rep *Report, conds map[string]int) (*plot.Plot, error) {
	runs := 0
	for _, m := range rep.Models {
		runs += len(m.Runs)
	}
	p := newPanel(fmt.Sprintf("WER per run (%d %s), mean ± s.e.", runs, plural(runs, "run", "runs")), "model", "WER (%)")
	rng := rand.New(rand.NewPCG(jitterSeed, 0))
	var xys []condXY
	means, ses := make([]float64, len(rep.Models)), make([]float64, len(rep.Models))
	names := make([]string, len(rep.Models))
	for i, m := range rep.Models {
		names[i] = fmt.Sprintf("%s (%d)", m.Model, len(m.Runs))
		means[i], ses[i] = m.WER.Mean, m.WER.SE
		for _, r := range m.Runs {
			c := conds[r.Condition]
			xys = append(xys, condXY{c, float64(i) + offset(c, len(conds), rng), r.WER})
		}
	}
	if err := addPoints(p, conds, xys, true); err != nil {
		return nil, err
	}
	if err := meanBars(p, means, ses, ses, "mean ± s.e."); err != nil {
		return nil, err
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(len(names))-0.4+0.9 // room on the right for the legend
	ys := []float64{0}                                   // WER axes start at 0
	for i := range means {
		ys = append(ys, means[i]-ses[i], means[i]+ses[i])
	}
	for _, q := range xys {
		ys = append(ys, q.y)
	}
	padY(p, ys...)
	p.Y.Min = 0
	p.Legend.Top = true
	p.Legend.TextStyle.Font.Size = vg.Points(9)
	return p, nil
}

func pairPanel(rep *Report, conds map[string]int) (*plot.Plot, error) {
	conf := confidenceLabel(rep.Options.Confidence)
	p := newPanel(fmt.Sprintf("Paired differences (points), mean and %s interval (black)", conf), "pair (runs matched on condition and seed)",
		"B - A (WER points; below 0: B better)")
	rng := rand.New(rand.NewPCG(jitterSeed, 1))
	var xys []condXY
	n := len(rep.Pairs)
	means, lo, hi := make([]float64, n), make([]float64, n), make([]float64, n)
	names := make([]string, n)
	for i, pr := range rep.Pairs {
		names[i] = fmt.Sprintf("%s - %s (%d)", pr.B, pr.A, pr.Diff.N)
		means[i] = pr.Diff.Mean
		lo[i], hi[i] = pr.Diff.Mean-pr.Diff.Lo, pr.Diff.Hi-pr.Diff.Mean
		for _, d := range pr.Paired {
			c := conds[d.Condition]
			xys = append(xys, condXY{c, float64(i) + offset(c, len(conds), rng), d.Diff})
		}
	}
	zero, err := plotter.NewLine(plotter.XYs{{X: -0.6, Y: 0}, {X: float64(n) - 0.4, Y: 0}})
	if err != nil {
		return nil, err
	}
	zero.LineStyle = draw.LineStyle{Color: color.Gray{Y: 90}, Width: vg.Points(1), Dashes: []vg.Length{vg.Points(4), vg.Points(3)}}
	p.Add(zero)
	if err := addPoints(p, conds, xys, false); err != nil {
		return nil, err
	}
	if err := meanBars(p, means, lo, hi, ""); err != nil {
		return nil, err
	}
	p.NominalX(names...)
	p.X.Min, p.X.Max = -0.6, float64(n)-0.4
	ys := []float64{0}
	for i := range rep.Pairs {
		ys = append(ys, rep.Pairs[i].Diff.Lo, rep.Pairs[i].Diff.Hi)
	}
	for _, q := range xys {
		ys = append(ys, q.y)
	}
	padY(p, ys...)
	return p, nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
