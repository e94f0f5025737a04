package lattice

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// formatCost prints a cost as Kaldi's WriteFloatType on a default C++ stream:
// 6 significant digits (%g), "Infinity", "-Infinity", "BadNumber" for NaN.
func formatCost(b []byte, f float32) []byte {
	switch {
	case math.IsInf(float64(f), 1):
		return append(b, "Infinity"...)
	case math.IsInf(float64(f), -1):
		return append(b, "-Infinity"...)
	case f != f:
		return append(b, "BadNumber"...)
	}
	return strconv.AppendFloat(b, float64(f), 'g', 6, 64)
}

func appendWeight(b []byte, w Weight) []byte {
	b = formatCost(b, w.Graph)
	b = append(b, ',')
	return formatCost(b, w.Acoustic)
}

func appendCompactWeight(b []byte, w CompactWeight) []byte {
	b = appendWeight(b, w.W)
	b = append(b, ',')
	for i, t := range w.Tids {
		if i > 0 {
			b = append(b, '_')
		}
		b = strconv.AppendInt(b, int64(t), 10)
	}
	return b
}

// stateOrder is FstPrinter's order: the start state first, then the others.
func stateOrder(start int32, n int) []int32 {
	order := make([]int32, 0, n)
	if start >= 0 && int(start) < n {
		order = append(order, start)
	}
	for s := int32(0); int(s) < n; s++ {
		if s != start {
			order = append(order, s)
		}
	}
	return order
}

// WriteText writes c as Kaldi's text archives hold it (after "key "): a
// newline, OpenFst's acceptor printing with tab separators and weights
// "graph,acoustic,tid_tid_..." (omitted when One), and an empty line.
func (c *CompactLattice) WriteText(w io.Writer) error {
	b := []byte{'\n'}
	for _, s := range stateOrder(c.Start, len(c.States)) {
		st := &c.States[s]
		for _, a := range st.Arcs {
			b = strconv.AppendInt(b, int64(s), 10)
			b = append(b, '\t')
			b = strconv.AppendInt(b, int64(a.Next), 10)
			b = append(b, '\t')
			b = strconv.AppendInt(b, int64(a.Label), 10)
			if a.W.W != One || len(a.W.Tids) > 0 {
				b = append(b, '\t')
				b = appendCompactWeight(b, a.W)
			}
			b = append(b, '\n')
		}
		if !st.Final.W.IsZero() || len(st.Arcs) == 0 {
			b = strconv.AppendInt(b, int64(s), 10)
			if st.Final.W != One || len(st.Final.Tids) > 0 {
				b = append(b, '\t')
				b = appendCompactWeight(b, st.Final)
			}
			b = append(b, '\n')
		}
		if len(b) > 1<<16 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, '\n')
	_, err := w.Write(b)
	return err
}

// WriteText writes l as Kaldi's text archives hold a Lattice: a newline,
// "src dst tid word graph,acoustic" lines (weight omitted when One), final
// lines "state graph,acoustic", and an empty line.
func (l *Lattice) WriteText(w io.Writer) error {
	b := []byte{'\n'}
	for _, s := range stateOrder(l.Start, len(l.States)) {
		st := &l.States[s]
		for _, a := range st.Arcs {
			b = strconv.AppendInt(b, int64(s), 10)
			b = append(b, '\t')
			b = strconv.AppendInt(b, int64(a.Next), 10)
			b = append(b, '\t')
			b = strconv.AppendInt(b, int64(a.ILabel), 10)
			b = append(b, '\t')
			b = strconv.AppendInt(b, int64(a.OLabel), 10)
			if a.W != One {
				b = append(b, '\t')
				b = appendWeight(b, a.W)
			}
			b = append(b, '\n')
		}
		if !st.Final.IsZero() || len(st.Arcs) == 0 {
			b = strconv.AppendInt(b, int64(s), 10)
			if st.Final != One {
				b = append(b, '\t')
				b = appendWeight(b, st.Final)
			}
			b = append(b, '\n')
		}
		if len(b) > 1<<16 {
			if _, err := w.Write(b); err != nil {
				return err
			}
			b = b[:0]
		}
	}
	b = append(b, '\n')
	_, err := w.Write(b)
	return err
}

func parseCost(s string) (float32, error) {
	switch s {
	case "Infinity", "inf":
		return inf32, nil
	case "-Infinity", "-inf":
		return -inf32, nil
	case "BadNumber":
		return float32(math.NaN()), nil
	}
	f, err := strconv.ParseFloat(s, 32)
	if err != nil {
		return 0, fmt.Errorf("bad cost %q", s)
	}
	return float32(f), nil
}

// parseWeight reads "graph,acoustic" (a Lattice weight) or
// "graph,acoustic,tid_tid" (a CompactLattice weight); compact says which.
func parseWeight(s string) (w CompactWeight, compact bool, err error) {
	parts := strings.Split(s, ",")
	if len(parts) != 2 && len(parts) != 3 {
		return w, false, fmt.Errorf("bad weight %q", s)
	}
	if w.W.Graph, err = parseCost(parts[0]); err != nil {
		return w, false, err
	}
	if w.W.Acoustic, err = parseCost(parts[1]); err != nil {
		return w, false, err
	}
	if len(parts) == 2 {
		return w, false, nil
	}
	if parts[2] != "" {
		for _, t := range strings.Split(parts[2], "_") {
			v, err := strconv.ParseInt(t, 10, 32)
			if err != nil {
				return w, true, fmt.Errorf("bad transition-id %q in weight %q", t, s)
			}
			w.Tids = append(w.Tids, int32(v))
		}
	}
	return w, true, nil
}

// textLine is one parsed line of a text lattice.
type textLine struct {
	f    []string
	line int
}

// ReadText reads one lattice in Kaldi's text form (what follows "key " in a
// text archive: an optional newline, lines, then an empty line or the end of
// input). Lines with 5 fields or 2-part weights make it a Lattice; 3-part
// weights or 3-field arcs a CompactLattice. Exactly one result is non-nil.
// Errors give the line number counted from the start of the lattice.
func ReadText(r io.ByteReader) (*CompactLattice, *Lattice, error) {
	var lines []textLine
	var cur []byte
	n := 0
	first := true
	for {
		c, err := r.ReadByte()
		if err != nil && err != io.EOF {
			return nil, nil, err
		}
		if err == io.EOF || c == '\n' {
			n++
			f := strings.FieldsFunc(string(cur), func(r rune) bool { return r == ' ' || r == '\t' || r == '\r' })
			cur = cur[:0]
			if len(f) == 0 {
				if first && err == nil {
					first = false
					continue // the newline right after the key
				}
				break
			}
			first = false
			lines = append(lines, textLine{f, n})
			if err == io.EOF {
				break
			}
			continue
		}
		if len(cur) > 1<<20 {
			return nil, nil, fmt.Errorf("%w: line %d: line too long", ErrFormat, n+1)
		}
		cur = append(cur, c)
	}
	compact := true
	decided := false
	for _, l := range lines {
		switch len(l.f) {
		case 5:
			compact, decided = false, true
		case 2, 4:
			w := l.f[len(l.f)-1]
			if strings.Count(w, ",") == 2 {
				compact, decided = true, true
			} else if strings.Count(w, ",") == 1 || len(l.f) == 4 {
				compact, decided = false, true
			}
		case 3:
			compact, decided = true, true
		}
		if decided {
			break
		}
	}
	// Every state of a lattice appears on some line and a line names at
	// most two states, so larger ids are corrupt input (and would otherwise
	// make a few bytes allocate gigabytes).
	maxState := int64(2*len(lines) + 1)
	atoi := func(s string, l textLine, what string) (int32, error) {
		v, err := strconv.ParseInt(s, 10, 32)
		if err != nil || (what == "state" && v < 0) {
			return 0, fmt.Errorf("%w: line %d: bad %s %q", ErrFormat, l.line, what, s)
		}
		if what == "state" && v > maxState {
			return 0, fmt.Errorf("%w: line %d: state %d out of range for a lattice of %d lines", ErrFormat, l.line, v, len(lines))
		}
		return int32(v), nil
	}
	if compact {
		c := &CompactLattice{Start: NoState}
		start, err := walkTextLattice(lines, 1, "compact lattice", atoi, compactTextWeight,
			func() int { return len(c.States) }, func() { c.AddState() },
			func(s int32, w CompactWeight) { c.States[s].Final = w },
			func(s, d int32, labels []int32, w CompactWeight) {
				c.States[s].Arcs = append(c.States[s].Arcs, CompactArc{Label: labels[0], W: w, Next: d})
			})
		if err != nil {
			return nil, nil, err
		}
		c.Start = start
		return c, nil, nil
	}
	lat := &Lattice{Start: NoState}
	start, err := walkTextLattice(lines, 2, "lattice", atoi, latticeTextWeight,
		func() int { return len(lat.States) }, func() { lat.AddState() },
		func(s int32, w Weight) { lat.States[s].Final = w },
		func(s, d int32, labels []int32, w Weight) {
			lat.States[s].Arcs = append(lat.States[s].Arcs, Arc{ILabel: labels[0], OLabel: labels[1], W: w, Next: d})
		})
	if err != nil {
		return nil, nil, err
	}
	lat.Start = start
	return nil, lat, nil
}

// walkTextLattice reads the lines of a text lattice (compact or not) in
// OpenFst's text form: "s" or "s w" for a final state, "s d label… [w]" for
// an arc with nLabels labels. States are added (numStates, addState) as
// lines name them; parseW reads a line's weight field ("" when absent), and
// final and arc are given each line's states and weight. It returns the
// start state, the first line's.
func walkTextLattice[W any](lines []textLine, nLabels int, kind string, atoi func(string, textLine, string) (int32, error),
	parseW func(field string, l textLine) (W, error), numStates func() int, addState func(),
	final func(s int32, w W), arc func(s, d int32, labels []int32, w W)) (int32, error) {
	grow := func(s int32) error {
		if s > maxReasonableSize {
			return fmt.Errorf("%w: state %d too large", ErrFormat, s)
		}
		for int(s) >= numStates() {
			addState()
		}
		return nil
	}
	start := int32(NoState)
	labels := make([]int32, nLabels)
	for i, l := range lines {
		s, err := atoi(l.f[0], l, "state")
		if err != nil {
			return NoState, err
		}
		if err := grow(s); err != nil {
			return NoState, err
		}
		if i == 0 {
			start = s
		}
		switch n := len(l.f); {
		case n == 1 || n == 2:
			w, err := parseW(optionalField(l.f, 1), l)
			if err != nil {
				return NoState, err
			}
			final(s, w)
		case n == 2+nLabels || n == 3+nLabels:
			d, err := atoi(l.f[1], l, "state")
			if err != nil {
				return NoState, err
			}
			for k := range labels {
				if labels[k], err = atoi(l.f[2+k], l, "label"); err != nil {
					return NoState, err
				}
			}
			if err := grow(d); err != nil {
				return NoState, err
			}
			w, err := parseW(optionalField(l.f, 2+nLabels), l)
			if err != nil {
				return NoState, err
			}
			arc(s, d, labels, w)
		default:
			return NoState, fmt.Errorf("%w: line %d: %d fields in a %s line", ErrFormat, l.line, len(l.f), kind)
		}
	}
	return start, nil
}

func optionalField(f []string, i int) string {
	if i < len(f) {
		return f[i]
	}
	return ""
}

// compactTextWeight parses a compact lattice weight field (graph,acoustic,
// transition-ids); "" is CompactOne.
func compactTextWeight(wf string, l textLine) (CompactWeight, error) {
	if wf == "" {
		return CompactOne, nil
	}
	w, isc, err := parseWeight(wf)
	if err != nil || !isc {
		return CompactOne, fmt.Errorf("%w: line %d: bad compact lattice weight %q", ErrFormat, l.line, wf)
	}
	return w, nil
}

// latticeTextWeight parses a lattice weight field (graph,acoustic); "" is
// One.
func latticeTextWeight(wf string, l textLine) (Weight, error) {
	if wf == "" {
		return One, nil
	}
	cw, isc, err := parseWeight(wf)
	if err != nil || isc {
		return One, fmt.Errorf("%w: line %d: bad lattice weight %q", ErrFormat, l.line, wf)
	}
	return cw.W, nil
}
