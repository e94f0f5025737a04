package trainer

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/internal/figure"
)

// PlotHistory writes the training curves to path (a .png gets an .svg of
// the same figure beside it; see internal/figure): the cross-entropy per
// frame on top and the frame accuracy below, each for the training and the
// held-out set against the epoch, with a dotted line at the epoch of the
// lowest held-out cross-entropy.
func PlotHistory(path string, h []am.Epoch) error {
	ce := figure.New("Cross-entropy per epoch", "epoch", "cross-entropy (nats per frame)")
	acc := figure.New("Frame accuracy per epoch", "epoch", "frame accuracy (%)")
	get := func(f func(am.Epoch) float64) plotter.XYs {
		xys := make(plotter.XYs, len(h))
		for i, e := range h {
			xys[i] = plotter.XY{X: float64(e.Epoch), Y: f(e)}
		}
		return xys
	}
	series := []struct {
		p    *plot.Plot
		name string
		f    func(am.Epoch) float64
	}{
		{ce, "training set", func(e am.Epoch) float64 { return e.TrainCE }},
		{ce, "held-out set", func(e am.Epoch) float64 { return e.ValidCE }},
		{acc, "training set", func(e am.Epoch) float64 { return 100 * e.TrainAcc }},
		{acc, "held-out set", func(e am.Epoch) float64 { return 100 * e.ValidAcc }},
	}
	for i, s := range series {
		if len(h) == 0 {
			break
		}
		l, pts, err := figure.Line(get(s.f), figure.Color(i%2), false)
		if err != nil {
			return err
		}
		s.p.Add(l, pts)
		s.p.Legend.Add(s.name, l, pts)
	}
	if best := bestEpoch(h); best >= 0 {
		for k, p := range []*plot.Plot{ce, acc} {
			lo, hi := yRange(h, series[2*k].f, series[2*k+1].f)
			if err := figure.AddVLine(p, float64(h[best].Epoch), lo, hi, fmt.Sprintf("lowest held-out CE (epoch %d)", h[best].Epoch)); err != nil {
				return err
			}
		}
	}
	for k, p := range []*plot.Plot{ce, acc} {
		p.X.Tick.Marker = figure.IntegerTicks(10)
		if len(h) == 0 {
			p.X.Min, p.X.Max = 0, 1
			continue
		}
		// Margins, so that no point sits on an axis or under the legend.
		p.X.Min, p.X.Max = float64(h[0].Epoch)-0.3, float64(h[len(h)-1].Epoch)+0.3
		lo, hi := yRange(h, series[2*k].f, series[2*k+1].f)
		if pad := 0.08 * (hi - lo); pad > 0 {
			p.Y.Min, p.Y.Max = lo-3*pad, hi+pad // room for the legend at the bottom
			if p == acc {
				p.Y.Min, p.Y.Max = lo-pad, hi+3*pad // at the top
			}
		}
	}
	// The legends go to the corners the curves leave empty, left of the
	// best epoch's line (usually late): CE falls (bottom left), accuracy
	// rises (top left).
	ce.Legend.Top, ce.Legend.Left = false, true
	acc.Legend.Top, acc.Legend.Left = true, true
	ce.Legend.XOffs, acc.Legend.XOffs = vg.Points(6), vg.Points(6)
	ce.Legend.YOffs = vg.Points(4)
	return figure.Save(path, 7*vg.Inch, 7.5*vg.Inch, []*plot.Plot{ce}, []*plot.Plot{acc})
}

// bestEpoch is the index of the epoch with the lowest held-out CE (−1 for
// none).
func bestEpoch(h []am.Epoch) int {
	best := -1
	for i, e := range h {
		if !math.IsNaN(e.ValidCE) && (best < 0 || e.ValidCE < h[best].ValidCE) {
			best = i
		}
	}
	return best
}

// yRange is the smallest and largest finite value of f over h.
func yRange(h []am.Epoch, fs ...func(am.Epoch) float64) (lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, e := range h {
		for _, f := range fs {
			if v := f(e); !math.IsNaN(v) && !math.IsInf(v, 0) {
				lo, hi = math.Min(lo, v), math.Max(hi, v)
			}
		}
	}
	return lo, hi
}
