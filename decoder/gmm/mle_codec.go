package gmm

import (
	"fmt"

	"github.com/strode-asr/strode/kaldiio"
)

// AccumAmDiagGmmCodec reads and writes Kaldi's AccumAmDiagGmm: <NUMPDFS> n,
// n <GMMACCS> objects (statistics written as float, as Kaldi converts them
// before writing), then <total_like> and <total_frames> in double.
var AccumAmDiagGmmCodec kaldiio.Codec[AccumAmDiagGmm] = accAmCodec{}

type accAmCodec struct{}

func (accAmCodec) Read(r *kaldiio.Reader, binary bool, a *AccumAmDiagGmm) error {
	if err := r.ExpectToken(binary, "<NUMPDFS>"); err != nil {
		return err
	}
	n, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	if n <= 0 || n > 1<<24 {
		return r.Errorf("GMM accumulators for %d pdfs", n)
	}
	a.Accs = make([]AccumDiagGmm, 0, min(int(n), 1<<12))
	for i := 0; i < int(n); i++ {
		var g AccumDiagGmm
		if err := readAccDiagGmm(r, binary, &g); err != nil {
			return fmt.Errorf("accumulator of pdf %d: %w", i, err)
		}
		a.Accs = append(a.Accs, g)
	}
	a.TotLogLike, a.TotFrames = 0, 0
	// Older accumulators end here (Kaldi peeks for end of file).
	if r.AtEOF() {
		return nil
	}
	if err := r.ExpectToken(binary, "<total_like>"); err != nil {
		return err
	}
	if a.TotLogLike, err = r.ReadFloat64(binary); err != nil {
		return err
	}
	if err := r.ExpectToken(binary, "<total_frames>"); err != nil {
		return err
	}
	a.TotFrames, err = r.ReadFloat64(binary)
	return err
}

func readAccDiagGmm(r *kaldiio.Reader, binary bool, a *AccumDiagGmm) error {
	if err := r.ExpectToken(binary, "<GMMACCS>"); err != nil {
		return err
	}
	if err := r.ExpectToken(binary, "<VECSIZE>"); err != nil {
		return err
	}
	dim, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	if err := r.ExpectToken(binary, "<NUMCOMPONENTS>"); err != nil {
		return err
	}
	n, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	if err := r.ExpectToken(binary, "<FLAGS>"); err != nil {
		return err
	}
	flags, err := kaldiio.ReadBasicInt[uint16](r, binary)
	if err != nil {
		return err
	}
	if dim < 1 || dim > 1<<16 || n < 1 || n > 1<<20 || flags&^FlagAll != 0 {
		return r.Errorf("GMM accumulator with dimension %d, %d components, flags %d", dim, n, flags)
	}
	*a = NewAccumDiagGmm(int(n), int(dim), flags)
	for {
		tok, err := r.ReadToken(binary)
		if err != nil {
			return err
		}
		var dst []float64
		var rows int
		switch tok {
		case "</GMMACCS>":
			return nil
		case "<OCCUPANCY>":
			var v kaldiio.DoubleVector
			if err := kaldiio.DoubleVectorCodec.Read(r, binary, &v); err != nil {
				return err
			}
			if len(v) != a.NumGauss {
				return r.Errorf("<OCCUPANCY> has %d elements, the accumulator %d components", len(v), a.NumGauss)
			}
			copy(a.Occupancy, v)
			continue
		case "<MEANACCS>":
			dst, rows = a.MeanAcc, a.NumGauss
		case "<DIAGVARACCS>":
			dst, rows = a.VarAcc, a.NumGauss
		default:
			return r.Errorf("unexpected token %q in GMM accumulators", tok)
		}
		var m kaldiio.DoubleMatrix
		if err := kaldiio.DoubleMatrixCodec.Read(r, binary, &m); err != nil {
			return err
		}
		if dst == nil || m.Rows != rows || m.Cols != a.Dim {
			return r.Errorf("%s is %d×%d in an accumulator of %d components of dimension %d (flags %d)", tok, m.Rows, m.Cols, a.NumGauss, a.Dim, a.Flags)
		}
		copy(dst, m.Data[:m.Rows*m.Cols])
	}
}

// Write is Kaldi's AccumAmDiagGmm::Write.
func (accAmCodec) Write(w *kaldiio.Writer, binary bool, a *AccumAmDiagGmm) error {
	w.WriteToken(binary, "<NUMPDFS>")
	w.WriteInt32(binary, int32(len(a.Accs)))
	for i := range a.Accs {
		g := &a.Accs[i]
		w.WriteToken(binary, "<GMMACCS>")
		w.WriteToken(binary, "<VECSIZE>")
		w.WriteInt32(binary, int32(g.Dim))
		w.WriteToken(binary, "<NUMCOMPONENTS>")
		w.WriteInt32(binary, int32(g.NumGauss))
		w.WriteToken(binary, "<FLAGS>")
		kaldiio.WriteBasicInt(w, binary, g.Flags)
		occ := make(kaldiio.Vector, len(g.Occupancy))
		for j, v := range g.Occupancy {
			occ[j] = float32(v)
		}
		w.WriteToken(binary, "<OCCUPANCY>")
		kaldiio.VectorCodec.Write(w, binary, &occ)
		for _, s := range []struct {
			tok  string
			data []float64
		}{{"<MEANACCS>", g.MeanAcc}, {"<DIAGVARACCS>", g.VarAcc}} {
			m := kaldiio.Matrix{}
			if s.data != nil {
				m = kaldiio.NewMatrix(g.NumGauss, g.Dim)
				for j, v := range s.data {
					m.Data[j] = float32(v)
				}
			}
			w.WriteToken(binary, s.tok)
			kaldiio.MatrixCodec.Write(w, binary, &m)
		}
		w.WriteToken(binary, "</GMMACCS>")
	}
	w.WriteToken(binary, "<total_like>")
	w.WriteFloat64(binary, a.TotLogLike)
	w.WriteToken(binary, "<total_frames>")
	return w.WriteFloat64(binary, a.TotFrames)
}

// Accs is the file gmm-acc-stats-ali writes and gmm-est reads: the
// transition-id counts (a double vector indexed by transition-id, element 0
// unused) and the Gaussians' statistics.
type Accs struct {
	Transitions kaldiio.DoubleVector
	GMM         AccumAmDiagGmm
}

// AccsCodec reads and writes Accs.
var AccsCodec kaldiio.Codec[Accs] = accsCodec{}

type accsCodec struct{}

func (accsCodec) Read(r *kaldiio.Reader, binary bool, a *Accs) error {
	if err := kaldiio.DoubleVectorCodec.Read(r, binary, &a.Transitions); err != nil {
		return fmt.Errorf("transition accumulators: %w", err)
	}
	return AccumAmDiagGmmCodec.Read(r, binary, &a.GMM)
}

func (accsCodec) Write(w *kaldiio.Writer, binary bool, a *Accs) error {
	if err := kaldiio.DoubleVectorCodec.Write(w, binary, &a.Transitions); err != nil {
		return err
	}
	return AccumAmDiagGmmCodec.Write(w, binary, &a.GMM)
}

// Add adds other to a (gmm-sum-accs).
func (a *Accs) Add(o *Accs) error {
	if a.Transitions == nil && a.GMM.Accs == nil {
		a.Transitions = append(kaldiio.DoubleVector(nil), o.Transitions...)
		a.GMM = AccumAmDiagGmm{}
		for _, g := range o.GMM.Accs {
			c := NewAccumDiagGmm(g.NumGauss, g.Dim, g.Flags)
			c.Add(1, &g)
			a.GMM.Accs = append(a.GMM.Accs, c)
		}
		a.GMM.TotLogLike, a.GMM.TotFrames = o.GMM.TotLogLike, o.GMM.TotFrames
		return nil
	}
	if len(a.Transitions) != len(o.Transitions) {
		return fmt.Errorf("transition accumulators have %d and %d elements", len(a.Transitions), len(o.Transitions))
	}
	for i, v := range o.Transitions {
		a.Transitions[i] += v
	}
	return a.GMM.Add(1, &o.GMM)
}
