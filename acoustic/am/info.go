package am

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"text/tabwriter"
)

// WriteInfo prints the model's architecture, parameters, feature pipeline
// and training history for people (strode model-info).
func (f *File) WriteInfo(w io.Writer) error {
	m := f.Model
	o := m.Opts
	bw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	writeArchitecture(bw, o)
	fmt.Fprintf(bw, "feature pipeline\t%s\n", f.Pipeline)
	fmt.Fprintf(bw, "parameters\t%d in %d tensors, sha256 %s\n", m.NumParams(), len(m.Params.List), m.Checksum())
	if err := bw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nparameters per part:")
	if err := WriteParts(w, o.Kind, m.TensorShapes()); err != nil {
		return err
	}
	fmt.Fprintln(w, "\ntensors:")
	for _, p := range m.Params.List {
		fmt.Fprintf(bw, "  %s\t[%d %d]\t%d\n", p.Name, p.Rows, p.Cols, len(p.Data))
	}
	if err := bw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\ntraining history:")
	if len(f.History) == 0 {
		fmt.Fprintln(w, "  (none)")
		return nil
	}
	head := m.HasTTilde()
	if head {
		fmt.Fprintln(bw, "  epoch\tlr\ttrain CE\ttrain acc\tcv CE\tcv acc\tframes/s\taccepted\tcv t~ mean\tstd\tmin\tmax")
	} else {
		fmt.Fprintln(bw, "  epoch\tlr\ttrain CE\ttrain acc\tcv CE\tcv acc\tframes/s\taccepted")
	}
	for _, e := range f.History {
		fmt.Fprintf(bw, "  %d\t%.3g\t%.4f\t%.2f%%\t%.4f\t%.2f%%\t%.0f\t%v", e.Epoch, e.LearningRate, e.TrainCE, 100*e.TrainAcc,
			e.ValidCE, 100*e.ValidAcc, e.FramesPerSec, e.Accepted)
		if head {
			tt := e.ValidTTilde
			fmt.Fprintf(bw, "\t%.3g\t%.3g\t%.3g\t%.3g", tt[0], tt[1], tt[2], tt[3])
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}

// Checksum is the SHA-256 of every parameter's name and float64 values in
// order: equal checksums mean bitwise-equal models, whatever the metadata
// (training times differ between runs).
func (m *Model) Checksum() string {
	h := sha256.New()
	var b [8]byte
	for _, p := range m.Params.List {
		h.Write([]byte(p.Name))
		for _, v := range p.Data {
			binary.LittleEndian.PutUint64(b[:], math.Float64bits(v))
			h.Write(b[:])
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

// writeArchitecture prints the kind, the sizes of every part (the kind's
// lines: arch.describe), the target delay and the input and output sizes.
func writeArchitecture(bw io.Writer, o Options) {
	fmt.Fprintf(bw, "kind\t%s\n", o.Kind)
	if a, err := archOf(o); err == nil {
		a.describe(bw, o)
	}
	fmt.Fprintf(bw, "target delay\t%d frames\n", o.TargetDelay)
	fmt.Fprintf(bw, "input dim\t%d\n", o.InputDim)
	fmt.Fprintf(bw, "num pdfs\t%d\n", o.NumPdfs)
}

// WriteSizes prints the architecture and the parameter count per part of
// a model with options o, without building it (Shapes): `strode model-info
// --preset=paper --model=X --num-pdfs=N --feat-dim=D`. For the paper's
// sizes it adds the count the STRODE paper reports (BASELINES.md compares).
func WriteSizes(w io.Writer, o Options) error {
	ts, err := Shapes(o)
	if err != nil {
		return err
	}
	bw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	writeArchitecture(bw, o)
	n := 0
	for _, t := range ts {
		n += t.Rows * t.Cols
	}
	fmt.Fprintf(bw, "parameters\t%d in %d tensors (from the options; no model built)\n", n, len(ts))
	if err := bw.Flush(); err != nil {
		return err
	}
	fmt.Fprintln(w, "\nparameters per part:")
	if err := WriteParts(w, o.Kind, ts); err != nil {
		return err
	}
	if m, ok := paperCount(o); ok {
		fmt.Fprintf(w, "  paper    %d M as the STRODE paper reports it (BASELINES.md: why the counts differ)\n", m)
	}
	return nil
}

// paperCount is the parameter count, in millions, that the STRODE paper
// gives for a model of o's sizes (§5.1: STRODE 9 × 900, ODE-RNN 9 + 9 ×
// 1100, both with ODE state 128), if o has them.
func paperCount(o Options) (int, bool) {
	a, err := archOf(o)
	if err != nil {
		return 0, false
	}
	return a.paperMillions(o)
}
