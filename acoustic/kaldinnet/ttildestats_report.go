package kaldinnet

import (
	"encoding/json"
	"fmt"
	"io"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"

	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/internal/figure"
)

// WriteMarkdown prints the statistics as a Markdown table: all frames, then
// the phones with at least minFrames frames.
func (st *TTildeStats) WriteMarkdown(w io.Writer, minFrames int) error {
	fmt.Fprintf(w, "t~ over %d frames of %d utterances (%d skipped)\n\n", st.All.Frames, st.Utterances, st.Skipped)
	fmt.Fprintln(w, "| phone | frames | t~ mean | std | p10 | median | p90 | mean Δ log p(label) | arg-max changed |")
	fmt.Fprintln(w, "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |")
	row := func(g *TTildeGroup) {
		fmt.Fprintf(w, "| %s | %d | %.4g | %.3g | %.4g | %.4g | %.4g | %+.4f | %.2f%% |\n", g.Name, g.Frames,
			g.Mean, g.Std, g.P10, g.P50, g.P90, g.DeltaLogP, 100*g.ArgChanged)
	}
	row(&st.All)
	for _, g := range st.Phones {
		if g.Frames >= minFrames {
			row(g)
		}
	}
	_, err := fmt.Fprintln(w)
	return err
}

// WriteJSON writes the statistics to path (through a temporary name).
func (st *TTildeStats) WriteJSON(path string) error {
	b, err := json.MarshalIndent(st, "", " ")
	if err != nil {
		return err
	}
	return atomicfile.WriteBytes(path, append(b, '\n'))
}

// SaveHistogram draws the distribution of every frame's t̃ to path (PNG
// and the SVG beside it).
func (st *TTildeStats) SaveHistogram(path, title string) error {
	if st.All.P10 == st.All.P90 && st.All.Std == 0 {
		return fmt.Errorf("dataset: every frame's t~ is %g: no histogram to draw", st.All.Mean)
	}
	p := figure.New(title, "t~ (frames)", "frames")
	h, err := plotter.NewHist(plotter.Values(st.Values), 40)
	if err != nil {
		return err
	}
	h.FillColor = figure.Color(0)
	h.LineStyle.Width = 0
	p.Add(h)
	return figure.Save(path, 6*vg.Inch, 4*vg.Inch, []*plot.Plot{p})
}
