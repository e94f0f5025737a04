package kaldinnet

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/kaldiio"
)

// Training examples ("egs", after nnet3's steps/nnet3/get_egs.sh) are whole
// utterances: the SRU is recurrent over an utterance, so an example is not
// a frame with context (nnet2/nnet3 DNN egs) nor a fixed-size chunk (nnet3
// RNN egs) but one utterance's features and its pdf-id per frame. They live
// in Kaldi archives egs.1.ark … egs.N.ark, one table entry per utterance,
// keyed by the utterance id, each entry one object:
//
//	<StrodeEg> <Feats> MATRIX <Pdfs> INTVECTOR </StrodeEg>
//
// MATRIX is a Kaldi float matrix (FM; CM/CM2 with --compress; "[ … ]" in
// text archives) of the features with CMVN applied but not spliced, and
// INTVECTOR a Kaldi integer vector (WriteIntegerVector's form: binary size
// byte 4, an int32 count, the int32 values; "[ 1 2 3 ]" in text) of as
// many pdf-ids as the matrix has rows. Splicing is left to the reader
// (ReadEgs, from the model's pipeline): it costs a copy per utterance and
// would multiply the archives' size by 1 + left + right context (nnet3's
// egs, too, store frames, not spliced frames). Kaldi's own tools do not
// know the object (as they would not know another toolkit's); our kaldiio
// reads and writes it through EgCodec, so `ark,t:` prints it.

// Eg is one training example: an utterance's features (CMVN applied, not
// spliced) and its pdf-id per frame.
type Eg struct {
	Feats kaldiio.Matrix
	Pdfs  []int32
}

// EgCodec reads and writes Eg objects; with Compress, Write stores the
// features as Kaldi's CompressedMatrix (method 1, "automatic", as
// nnet3-get-egs --compress). Read accepts both.
type EgCodec struct{ Compress bool }

// Egs tokens.
const (
	egToken      = "<StrodeEg>"
	egFeatsToken = "<Feats>"
	egPdfsToken  = "<Pdfs>"
	egEndToken   = "</StrodeEg>"
)

// Read reads one example and checks that it has one pdf-id, ≥ 0, per row.
func (EgCodec) Read(r *kaldiio.Reader, binary bool, e *Eg) error {
	if err := r.ExpectToken(binary, egToken); err != nil {
		return err
	}
	if err := r.ExpectToken(binary, egFeatsToken); err != nil {
		return err
	}
	if err := kaldiio.MatrixCodec.Read(r, binary, &e.Feats); err != nil {
		return err
	}
	if err := r.ExpectToken(binary, egPdfsToken); err != nil {
		return err
	}
	p, err := r.ReadIntVector(binary, e.Pdfs)
	if err != nil {
		return err
	}
	e.Pdfs = p
	if err := r.ExpectToken(binary, egEndToken); err != nil {
		return err
	}
	if len(e.Pdfs) != e.Feats.Rows {
		return r.Errorf("example has %d feature rows but %d pdf-ids", e.Feats.Rows, len(e.Pdfs))
	}
	for i, v := range e.Pdfs {
		if v < 0 {
			return r.Errorf("example frame %d: negative pdf-id %d", i, v)
		}
	}
	return nil
}

// Write writes one example.
func (c EgCodec) Write(w *kaldiio.Writer, binary bool, e *Eg) error {
	if len(e.Pdfs) != e.Feats.Rows {
		return fmt.Errorf("dataset: example has %d feature rows but %d pdf-ids", e.Feats.Rows, len(e.Pdfs))
	}
	w.WriteToken(binary, egToken)
	w.WriteToken(binary, egFeatsToken)
	if c.Compress && binary {
		cm, err := kaldiio.Compress(&e.Feats, kaldiio.AutomaticMethod)
		if err != nil {
			return err
		}
		if err := kaldiio.CompressedMatrixCodec.Write(w, binary, &cm); err != nil {
			return err
		}
	} else if err := kaldiio.MatrixCodec.Write(w, binary, &e.Feats); err != nil {
		return err
	}
	w.WriteToken(binary, egPdfsToken)
	if err := w.WriteIntVector(binary, e.Pdfs); err != nil {
		return err
	}
	return w.WriteToken(binary, egEndToken)
}

// EgsInfo is what get-egs records in <egs-dir>/info, one value per file as
// nnet3's egs directories do (info/num_archives is written last: an egs
// directory without it is incomplete).
type EgsInfo struct {
	NumArchives int         // info/num_archives
	NumFrames   int         // info/num_frames: training frames in the archives
	NumUtts     int         // info/num_utts: training utterances in the archives
	FeatDim     int         // info/feat_dim: columns of the stored features (before splicing)
	NumPdfs     int         // info/num_pdfs
	Pipeline    am.Pipeline // info/pipeline (JSON): the model's whole pipeline, splicing included
}

// Paths in an egs directory.
func EgsArchive(dir string, k int) string { return filepath.Join(dir, fmt.Sprintf("egs.%d.ark", k)) }

// ValidDiagnostic is the held-out examples' archive.
func ValidDiagnostic(dir string) string { return filepath.Join(dir, "valid_diagnostic.ark") }

// TrainDiagnostic is the archive of a subset of the training examples
// (nnet3's train_diagnostic.egs), for training-set statistics of a model.
func TrainDiagnostic(dir string) string { return filepath.Join(dir, "train_diagnostic.ark") }

// ErrEgsIncomplete is returned for an egs directory get-egs did not finish.
var ErrEgsIncomplete = errors.New("egs directory incomplete")

func (e EgsInfo) write(dir string) error {
	info := filepath.Join(dir, "info")
	if err := os.MkdirAll(info, 0o755); err != nil {
		return err
	}
	files := []struct{ name, value string }{
		{"num_frames", strconv.Itoa(e.NumFrames)},
		{"num_utts", strconv.Itoa(e.NumUtts)},
		{"feat_dim", strconv.Itoa(e.FeatDim)},
		{"num_pdfs", strconv.Itoa(e.NumPdfs)},
		{"left_context", strconv.Itoa(e.Pipeline.SpliceLeft)},
		{"right_context", strconv.Itoa(e.Pipeline.SpliceRight)},
		{"pipeline", e.Pipeline.JSON()},
		{"num_archives", strconv.Itoa(e.NumArchives)}, // last: marks the directory complete
	}
	for _, f := range files {
		if err := writeFileAtomic(filepath.Join(info, f.name), f.value+"\n"); err != nil {
			return err
		}
	}
	return nil
}

// ReadEgsInfo reads the info of a complete egs directory.
func ReadEgsInfo(dir string) (EgsInfo, error) {
	var e EgsInfo
	read := func(name string) (string, error) {
		b, err := os.ReadFile(filepath.Join(dir, "info", name))
		if errors.Is(err, os.ErrNotExist) && name == "num_archives" {
			return "", fmt.Errorf("dataset: %s: %w (no info/num_archives: run get-egs to the end)", dir, ErrEgsIncomplete)
		}
		return strings.TrimSpace(string(b)), err
	}
	ints := []struct {
		name string
		v    *int
	}{{"num_archives", &e.NumArchives}, {"num_frames", &e.NumFrames}, {"num_utts", &e.NumUtts}, {"feat_dim", &e.FeatDim}, {"num_pdfs", &e.NumPdfs}}
	for _, f := range ints {
		s, err := read(f.name)
		if err != nil {
			return e, err
		}
		if *f.v, err = strconv.Atoi(s); err != nil || *f.v < 1 {
			return e, fmt.Errorf("dataset: %s/info/%s: %q is not a positive whole number", dir, f.name, s)
		}
	}
	s, err := read("pipeline")
	if err != nil {
		return e, err
	}
	if e.Pipeline, err = parsePipeline(s); err != nil {
		return e, fmt.Errorf("dataset: %s/info/pipeline: %w", dir, err)
	}
	if e.Pipeline.RawDim != e.FeatDim {
		return e, fmt.Errorf("dataset: %s/info: pipeline raw dimension %d, feat_dim %d", dir, e.Pipeline.RawDim, e.FeatDim)
	}
	return e, nil
}

// ReadEgs reads an archive of examples (any rspecifier) into utterances
// for a model with pipeline p and numPdfs outputs: it checks the stored
// feature dimension against p.RawDim and every pdf-id against numPdfs, and
// splices the features as p says (CMVN was applied by get-egs).
func ReadEgs(rspecifier string, p am.Pipeline, numPdfs int) ([]*am.Utterance, error) {
	sr, err := kaldiio.OpenSequentialReader(rspecifier, EgCodec{})
	if err != nil {
		return nil, err
	}
	defer sr.Close()
	var out []*am.Utterance
	for sr.Next() {
		key, e := sr.Key(), sr.Value()
		if e.Feats.Cols != p.RawDim {
			return nil, fmt.Errorf("dataset: %s: utterance %s: examples have dimension %d, the model's pipeline wants %d (%s)", rspecifier, key, e.Feats.Cols, p.RawDim, p)
		}
		for i, v := range e.Pdfs {
			if int(v) >= numPdfs {
				return nil, fmt.Errorf("dataset: %s: utterance %s frame %d: pdf-id %d outside [0, %d) of the model's output", rspecifier, key, i, v, numPdfs)
			}
		}
		feats := e.Feats.Data[:e.Feats.Rows*e.Feats.Cols]
		if p.SpliceLeft+p.SpliceRight > 0 {
			if feats, err = features.SpliceFrames(feats, e.Feats.Rows, e.Feats.Cols, p.SpliceLeft, p.SpliceRight); err != nil {
				return nil, fmt.Errorf("dataset: %s: utterance %s: %w", rspecifier, key, err)
			}
		}
		out = append(out, &am.Utterance{Key: key, Rows: e.Feats.Rows, Feats: feats, Targets: e.Pdfs})
	}
	if err := sr.Err(); err != nil {
		return nil, err
	}
	return out, nil
}
