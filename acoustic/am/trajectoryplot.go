package am

import (
	"fmt"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/strode-asr/strode/internal/figure"
)

// WritePNG plots the trajectory to path (and the SVG beside it): the
// softmax probability of the shown pdfs against t ∈ [0, 2t̃] (frames after
// the frame, the ODE's time), the aligned pdf in blue, the two others in
// orange and green, and a dotted line at t = t̃, the sampled boundary.
func (tr *Trajectory) WritePNG(path string) error {
	p := figure.New(fmt.Sprintf("Postdiction of %s, frame %d", tr.Utt, tr.Frame),
		fmt.Sprintf("t (frames after frame %d; ODE time)", tr.Frame), "softmax probability")
	for k, j := range tr.Shown {
		ys := tr.Probs[fmt.Sprint(j)]
		xys := make(plotter.XYs, 0, len(tr.Times))
		for i, t := range tr.Times {
			if i < len(ys) {
				xys = append(xys, plotter.XY{X: t, Y: ys[i]})
			}
		}
		c := k
		if tr.Label < 0 {
			c++ // blue is kept for the aligned pdf
		}
		l, err := plotter.NewLine(xys)
		if err != nil {
			return err
		}
		l.Color = figure.Color(c)
		l.Width = vg.Points(1.8)
		name := fmt.Sprintf("pdf %d", j)
		if j == tr.Label {
			name += " (aligned)"
		}
		p.Add(l)
		p.Legend.Add(name, l)
	}
	if err := addVLine(p, tr.TTilde, 0, 1, fmt.Sprintf("t~ = %.3g frames (sampled boundary)", tr.TTilde)); err != nil {
		return err
	}
	// Probabilities fill [0, 1]: the legend gets a band of its own above.
	p.Y.Min, p.Y.Max = 0, 1.38
	p.Y.Tick.Marker = plot.ConstantTicks{{Value: 0, Label: "0"}, {Value: 0.25, Label: "0.25"}, {Value: 0.5, Label: "0.5"},
		{Value: 0.75, Label: "0.75"}, {Value: 1, Label: "1"}}
	return figure.Save(path, 7*vg.Inch, 4.5*vg.Inch, []*plot.Plot{p})
}

// addVLine draws a dotted grey vertical line at x from y0 to y1, with a
// legend entry.
func addVLine(p *plot.Plot, x, y0, y1 float64, name string) error {
	l, err := plotter.NewLine(plotter.XYs{{X: x, Y: y0}, {X: x, Y: y1}})
	if err != nil {
		return err
	}
	l.Color = figure.Grey
	l.Width = vg.Points(1.2)
	l.Dashes = []vg.Length{vg.Points(2), vg.Points(2)}
	p.Add(l)
	p.Legend.Add(name, l)
	return nil
}
