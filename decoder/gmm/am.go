package gmm

import (
	"fmt"
	"io"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/kaldiio"
)

// AmDiagGmm is a GMM acoustic model: one DiagGmm per pdf, all of feature
// dimension Dim.
type AmDiagGmm struct {
	Dim  int
	Pdfs []DiagGmm
}

// NumPdfs is the number of pdfs.
func (am *AmDiagGmm) NumPdfs() int { return len(am.Pdfs) }

// NumGauss is the number of Gaussians over all pdfs.
func (am *AmDiagGmm) NumGauss() int {
	n := 0
	for i := range am.Pdfs {
		n += am.Pdfs[i].NumGauss()
	}
	return n
}

// LogLikelihoods writes every pdf's log-likelihood of the frames of feats
// into out (Rows × NumPdfs), as gmm-compute-likes does. A feature dimension
// other than Dim is an error.
func (am *AmDiagGmm) LogLikelihoods(feats *kaldiio.Matrix, out *kaldiio.Matrix) error {
	if feats.Cols != am.Dim {
		return fmt.Errorf("gmm: features have dimension %d, the model %d", feats.Cols, am.Dim)
	}
	p := am.NumPdfs()
	out.Resize(feats.Rows, p)
	maxGauss := 0
	for i := range am.Pdfs {
		maxGauss = max(maxGauss, am.Pdfs[i].NumGauss())
	}
	scratch := make([]float32, maxGauss)
	for t := 0; t < feats.Rows; t++ {
		x := feats.Data[t*feats.Cols : (t+1)*feats.Cols]
		row := out.Data[t*p : (t+1)*p]
		for j := range row {
			row[j] = am.Pdfs[j].LogLikelihood(x, scratch)
		}
	}
	return nil
}

// AmDiagGmmCodec reads and writes Kaldi's AmDiagGmm ("<DIMENSION> d
// <NUMPDFS> n" and n "<DiagGMM>" objects), binary or text. Reading
// recomputes the Gaussian constants, as Kaldi's DiagGmm::Read does.
var AmDiagGmmCodec kaldiio.Codec[AmDiagGmm] = amCodec{}

type amCodec struct{}

func (amCodec) Read(r *kaldiio.Reader, binary bool, am *AmDiagGmm) error {
	if err := r.ExpectToken(binary, "<DIMENSION>"); err != nil {
		return err
	}
	dim, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	if err := r.ExpectToken(binary, "<NUMPDFS>"); err != nil {
		return err
	}
	n, err := r.ReadInt32(binary)
	if err != nil {
		return err
	}
	if dim < 1 || dim > 1<<16 || n < 0 || n > 1<<24 {
		return r.Errorf("AmDiagGmm with dimension %d and %d pdfs", dim, n)
	}
	am.Dim = int(dim)
	am.Pdfs = make([]DiagGmm, 0, min(int(n), 1<<12))
	for i := 0; i < int(n); i++ {
		var g DiagGmm
		if err := readDiagGmm(r, binary, &g); err != nil {
			return fmt.Errorf("pdf %d: %w", i, err)
		}
		if g.Dim != am.Dim {
			return r.Errorf("pdf %d has dimension %d, the model %d", i, g.Dim, am.Dim)
		}
		am.Pdfs = append(am.Pdfs, g)
	}
	return nil
}

// readDiagGmm is Kaldi's DiagGmm::Read: <DiagGMM> [<GCONSTS> v] <WEIGHTS> v
// <MEANS_INVVARS> M <INV_VARS> M </DiagGMM> (the old <DiagGMMBegin> and
// <DiagGMMEnd> too).
func readDiagGmm(r *kaldiio.Reader, binary bool, g *DiagGmm) error {
	tok, err := r.ReadToken(binary)
	if err != nil {
		return err
	}
	if tok != "<DiagGMM>" && tok != "<DiagGMMBegin>" {
		return r.Errorf("expected <DiagGMM>, got %q", tok)
	}
	if tok, err = r.ReadToken(binary); err != nil {
		return err
	}
	var v kaldiio.Vector
	if tok == "<GCONSTS>" {
		// Stored constants are read and then recomputed, as Kaldi does.
		if err := kaldiio.VectorCodec.Read(r, binary, &v); err != nil {
			return err
		}
		if tok, err = r.ReadToken(binary); err != nil {
			return err
		}
	}
	if tok != "<WEIGHTS>" {
		return r.Errorf("expected <WEIGHTS>, got %q", tok)
	}
	var w kaldiio.Vector
	if err := kaldiio.VectorCodec.Read(r, binary, &w); err != nil {
		return err
	}
	var miv, iv kaldiio.Matrix
	if err := r.ExpectToken(binary, "<MEANS_INVVARS>"); err != nil {
		return err
	}
	if err := kaldiio.MatrixCodec.Read(r, binary, &miv); err != nil {
		return err
	}
	if err := r.ExpectToken(binary, "<INV_VARS>"); err != nil {
		return err
	}
	if err := kaldiio.MatrixCodec.Read(r, binary, &iv); err != nil {
		return err
	}
	if tok, err = r.ReadToken(binary); err != nil {
		return err
	}
	if tok != "</DiagGMM>" && tok != "<DiagGMMEnd>" {
		return r.Errorf("expected </DiagGMM>, got %q", tok)
	}
	if miv.Rows != len(w) || iv.Rows != len(w) || miv.Cols != iv.Cols || miv.Cols < 1 {
		return r.Errorf("DiagGMM with %d weights, means %d×%d, inverse variances %d×%d", len(w), miv.Rows, miv.Cols, iv.Rows, iv.Cols)
	}
	*g = DiagGmm{Dim: miv.Cols, Weights: w, MeansInvVars: miv.Data[:miv.Rows*miv.Cols], InvVars: iv.Data[:iv.Rows*iv.Cols]}
	if _, err := g.ComputeGconsts(); err != nil {
		return r.Errorf("%v", err)
	}
	return nil
}

// Write is Kaldi's AmDiagGmm::Write, byte for byte in both modes.
func (amCodec) Write(w *kaldiio.Writer, binary bool, am *AmDiagGmm) error {
	w.WriteToken(binary, "<DIMENSION>")
	w.WriteInt32(binary, int32(am.Dim))
	w.WriteToken(binary, "<NUMPDFS>")
	w.WriteInt32(binary, int32(len(am.Pdfs)))
	for i := range am.Pdfs {
		if err := writeDiagGmm(w, binary, &am.Pdfs[i]); err != nil {
			return err
		}
	}
	return nil
}

// writeDiagGmm is Kaldi's DiagGmm::Write.
func writeDiagGmm(w *kaldiio.Writer, binary bool, g *DiagGmm) error {
	nl := func() {
		if !binary {
			w.WriteString("\n")
		}
	}
	n := g.NumGauss()
	w.WriteToken(binary, "<DiagGMM>")
	nl()
	w.WriteToken(binary, "<GCONSTS>")
	gc := kaldiio.Vector(g.Gconsts)
	kaldiio.VectorCodec.Write(w, binary, &gc)
	w.WriteToken(binary, "<WEIGHTS>")
	wt := kaldiio.Vector(g.Weights)
	kaldiio.VectorCodec.Write(w, binary, &wt)
	w.WriteToken(binary, "<MEANS_INVVARS>")
	miv := kaldiio.Matrix{Rows: n, Cols: g.Dim, Data: g.MeansInvVars}
	kaldiio.MatrixCodec.Write(w, binary, &miv)
	w.WriteToken(binary, "<INV_VARS>")
	iv := kaldiio.Matrix{Rows: n, Cols: g.Dim, Data: g.InvVars}
	kaldiio.MatrixCodec.Write(w, binary, &iv)
	err := w.WriteToken(binary, "</DiagGMM>")
	nl()
	return err
}

// Model is a Kaldi GMM model file (final.mdl): the transition model and the
// GMMs.
type Model struct {
	Trans hmm.TransitionModel
	AM    AmDiagGmm
}

// ModelCodec reads and writes a GMM final.mdl (binary or text).
var ModelCodec kaldiio.Codec[Model] = modelCodec{}

type modelCodec struct{}

func (modelCodec) Read(r *kaldiio.Reader, binary bool, m *Model) error {
	if err := hmm.TransitionModelCodec.Read(r, binary, &m.Trans); err != nil {
		return err
	}
	if err := AmDiagGmmCodec.Read(r, binary, &m.AM); err != nil {
		return fmt.Errorf("GMM model: %w", err)
	}
	if got, want := m.AM.NumPdfs(), m.Trans.NumPdfs(); got != want {
		return r.Errorf("GMM model has %d pdfs, its transition model %d", got, want)
	}
	return nil
}

// Write is what Kaldi's gmm-copy writes: the transition model, then the GMMs.
func (modelCodec) Write(w *kaldiio.Writer, binary bool, m *Model) error {
	if err := hmm.TransitionModelCodec.Write(w, binary, &m.Trans); err != nil {
		return err
	}
	return AmDiagGmmCodec.Write(w, binary, &m.AM)
}

// ReadModel reads a Kaldi GMM model file; rx may be any rxfilename.
func ReadModel(rx string, opts ...kaldiio.Option) (*Model, error) {
	m := &Model{}
	if err := kaldiio.ReadObject(rx, ModelCodec, m, opts...); err != nil {
		return nil, fmt.Errorf("reading GMM model: %w", err)
	}
	return m, nil
}

// PrintInfo writes what Kaldi's gmm-info prints.
func (m *Model) PrintInfo(w io.Writer) error {
	if err := m.Trans.PrintInfo(w); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "feature dimension %d\nnumber of gaussians %d\n", m.AM.Dim, m.AM.NumGauss())
	return err
}
