// Package figure is the one place where strode's figures get their look:
// every plot (training curves, the sine recipe's inferred-vs-true times,
// postdiction trajectories) is a gonum.org/v1/plot Plot made by New (title,
// axis labels with units, a light grid, the legend top right), coloured
// from Palette, and written by Save, which lays out one or more panels and
// writes the PNG and, beside it, the SVG of the same figure (x.png and
// x.svg), each to a temporary name first (internal/atomicfile). Panels share
// a size so their axes line up (plot.Align).
package figure
