package tree

import (
	"github.com/strode-asr/strode/kaldiio"
)

// BuildTreeStatsCodec reads and writes Kaldi's tree statistics
// (WriteBuildTreeStats / ReadBuildTreeStats with GaussClusterable: "BTS",
// the count, then per entry the event "EV ...", a T/F flag and "GCL" count
// var-floor and the 2×D double matrix of Σx and Σx²), binary or text, so
// that acc-tree-stats, sum-tree-stats, cluster-phones, build-tree and
// gmm-init-model of either toolkit read the other's files.
var BuildTreeStatsCodec kaldiio.Codec[BuildTreeStats] = statsCodec{}

// maxStatsEntries and maxEventSize bound what a stats file may declare, so a
// corrupt count cannot make the reader allocate without end.
const (
	maxStatsEntries = 1 << 26
	maxEventSize    = 1 << 10
	maxStatsDim     = 1 << 16
)

type statsCodec struct{}

func (statsCodec) Read(r *kaldiio.Reader, binary bool, s *BuildTreeStats) error {
	if err := r.ExpectToken(binary, "BTS"); err != nil {
		return err
	}
	n, err := kaldiio.ReadBasicInt[uint32](r, binary)
	if err != nil {
		return err
	}
	if n > maxStatsEntries {
		return r.Errorf("tree stats declare %d entries", n)
	}
	out := make(BuildTreeStats, 0, min(n, 1<<16))
	dim := -1
	for i := uint32(0); i < n; i++ {
		ev, err := readEventType(r, binary)
		if err != nil {
			return err
		}
		nonNull, err := r.ReadBool(binary)
		if err != nil {
			return err
		}
		st := Stat{Event: ev}
		if nonNull {
			if st.Stats, err = readGaussClusterable(r, binary); err != nil {
				return err
			}
			if dim < 0 {
				dim = st.Stats.Dim()
			} else if st.Stats.Dim() != dim {
				return r.Errorf("tree stats entry %d (event %v) has dimension %d, earlier entries %d", i, ev, st.Stats.Dim(), dim)
			}
		}
		out = append(out, st)
	}
	*s = out
	return nil
}

// readEventType reads Kaldi's ReadEventType ("EV", uint32 size, then
// key/value int32 pairs), checking the keys are sorted and unique.
func readEventType(r *kaldiio.Reader, binary bool) (EventType, error) {
	if err := r.ExpectToken(binary, "EV"); err != nil {
		return nil, err
	}
	n, err := kaldiio.ReadBasicInt[uint32](r, binary)
	if err != nil {
		return nil, err
	}
	if n > maxEventSize {
		return nil, r.Errorf("event of size %d", n)
	}
	ev := make(EventType, n)
	for i := range ev {
		if ev[i].Key, err = r.ReadInt32(binary); err != nil {
			return nil, err
		}
		if ev[i].Value, err = r.ReadInt32(binary); err != nil {
			return nil, err
		}
	}
	if !checkEvent(ev) {
		return nil, r.Errorf("event %v: keys not sorted and unique", ev)
	}
	return ev, nil
}

func writeEventType(w *kaldiio.Writer, binary bool, ev EventType) {
	w.WriteToken(binary, "EV")
	kaldiio.WriteBasicInt(w, binary, uint32(len(ev)))
	for _, p := range ev {
		w.WriteInt32(binary, p.Key)
		w.WriteInt32(binary, p.Value)
	}
	if !binary {
		w.WriteString("\n")
	}
}

// readGaussClusterable reads "GCL", the count, the variance floor and the
// 2×D statistics matrix.
func readGaussClusterable(r *kaldiio.Reader, binary bool) (*GaussClusterable, error) {
	if err := r.ExpectToken(binary, "GCL"); err != nil {
		return nil, err
	}
	g := &GaussClusterable{}
	var err error
	if g.Count, err = r.ReadFloat64(binary); err != nil {
		return nil, err
	}
	if g.VarFloor, err = r.ReadFloat64(binary); err != nil {
		return nil, err
	}
	var m kaldiio.DoubleMatrix
	if err := kaldiio.DoubleMatrixCodec.Read(r, binary, &m); err != nil {
		return nil, err
	}
	if m.Rows != 2 || m.Cols > maxStatsDim {
		return nil, r.Errorf("Gaussian statistics matrix is %d×%d, expected 2 rows (Σx, Σx²)", m.Rows, m.Cols)
	}
	g.X = m.Data[:m.Cols:m.Cols]
	g.X2 = m.Data[m.Cols : 2*m.Cols : 2*m.Cols]
	return g, nil
}

func writeGaussClusterable(w *kaldiio.Writer, binary bool, g *GaussClusterable) error {
	w.WriteToken(binary, "GCL")
	w.WriteFloat64(binary, g.Count)
	w.WriteFloat64(binary, g.VarFloor)
	m := kaldiio.DoubleMatrix{Rows: 2, Cols: len(g.X), Data: append(append(make([]float64, 0, 2*len(g.X)), g.X...), g.X2...)}
	return kaldiio.DoubleMatrixCodec.Write(w, binary, &m)
}

func (statsCodec) Write(w *kaldiio.Writer, binary bool, s *BuildTreeStats) error {
	w.WriteToken(binary, "BTS")
	kaldiio.WriteBasicInt(w, binary, uint32(len(*s)))
	for _, st := range *s {
		writeEventType(w, binary, st.Event)
		w.WriteBool(binary, st.Stats != nil)
		if st.Stats != nil {
			if err := writeGaussClusterable(w, binary, st.Stats); err != nil {
				return err
			}
		}
	}
	if !binary {
		return w.WriteString("\n")
	}
	return nil
}

// ReadBuildTreeStats reads a tree statistics file (any rxfilename), binary
// or text.
func ReadBuildTreeStats(rx string, opts ...kaldiio.Option) (BuildTreeStats, error) {
	var s BuildTreeStats
	if err := kaldiio.ReadObject(rx, BuildTreeStatsCodec, &s, opts...); err != nil {
		return nil, err
	}
	return s, nil
}
