package kaldiio

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
)

// This file holds the logic of Kaldi's copy tools (copy-feats, copy-matrix,
// copy-vector, copy-int-vector, feat-to-dim, feat-to-len); cmd/strode only
// parses options and maps the results to exit codes.

// ErrNoneCopied is returned (wrapped) when a table copy copied nothing:
// Kaldi's copy tools exit with status 1 then.
var ErrNoneCopied = errors.New("nothing was copied")

// ErrMixed is Kaldi's "Cannot mix archives with regular files".
var ErrMixed = errors.New("cannot mix archives with regular files")

// IsRspecifier reports whether s parses as an rspecifier (Kaldi's
// ClassifyRspecifier != kNoRspecifier); tools use it to choose between table
// and single-file mode.
func IsRspecifier(s string) bool { _, err := ParseRspecifier(s); return err == nil }

// IsWspecifier reports whether s parses as a wspecifier.
func IsWspecifier(s string) bool { _, err := ParseWspecifier(s); return err == nil }

// CopyFeatsOptions are copy-feats' options, with Kaldi's names and defaults.
type CopyFeatsOptions struct {
	Binary            bool   // --binary: binary output for single files (tables use the wspecifier)
	Compress          bool   // --compress: write CompressedMatrix objects
	CompressionMethod int    // --compression-method: 1..7, Kaldi's CompressionMethod
	WriteNumFrames    string // --write-num-frames: wspecifier for per-utterance frame counts
	HtkIn, SphinxIn   bool   // --htk-in, --sphinx-in: not supported (an error if set)
}

// DefaultCopyFeatsOptions returns Kaldi's defaults.
func DefaultCopyFeatsOptions() CopyFeatsOptions {
	return CopyFeatsOptions{Binary: true, CompressionMethod: int(AutomaticMethod)}
}

// Register adds the options to fs.
func (o *CopyFeatsOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.Binary, "binary", o.Binary, "Binary-mode output (not relevant if writing to archive)")
	fs.BoolVar(&o.HtkIn, "htk-in", o.HtkIn, "Read input as HTK features (not supported by strode)")
	fs.BoolVar(&o.SphinxIn, "sphinx-in", o.SphinxIn, "Read input as Sphinx features (not supported by strode)")
	fs.BoolVar(&o.Compress, "compress", o.Compress, "If true, write output in compressed form(only currently supported for wxfilename, i.e. archive/script,output)")
	fs.IntVar(&o.CompressionMethod, "compression-method", o.CompressionMethod, "Only relevant if --compress=true; specifies which compression method to use (see comments in CompressionMethod enum in matrix/compressed-matrix.h for the list).")
	fs.StringVar(&o.WriteNumFrames, "write-num-frames", o.WriteNumFrames, "Wspecifier to write length in frames of each utterance. e.g. 'ark,t:utt2num_frames'.  Only applicable if writing tables, not when this program is writing individual files.  See also feat-to-len.")
}

// CopyFeats is copy-feats: it copies a feature table (or, when in is not an
// rspecifier, a single matrix file) and returns the number of matrices
// copied. A table copy that copies nothing returns ErrNoneCopied.
func CopyFeats(in, out string, o CopyFeatsOptions, opts ...Option) (int, error) {
	if o.HtkIn || o.SphinxIn {
		return 0, errors.New("--htk-in and --sphinx-in are not supported by strode")
	}
	method := CompressionMethod(o.CompressionMethod)
	if o.Compress && (method < 1 || method > 7) {
		return 0, fmt.Errorf("%w: invalid --compression-method=%d (valid: 1..7)", ErrCompress, o.CompressionMethod)
	}
	if !IsRspecifier(in) {
		if o.Compress {
			return 0, errors.New("compression is not supported for single files (as in Kaldi)")
		}
		if o.WriteNumFrames != "" {
			return 0, errors.New("--write-num-frames option not supported when writing/reading single files")
		}
		var m Matrix
		if err := ReadObject(in, MatrixCodec, &m, opts...); err != nil {
			return 0, err
		}
		return 1, WriteObject(out, MatrixCodec, o.Binary, &m, opts...)
	}
	r, err := OpenSequentialReader(in, MatrixCodec, opts...)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	r.SetReuse(true)
	var frames *TableWriter[int32]
	if o.WriteNumFrames != "" {
		if frames, err = OpenTableWriter(o.WriteNumFrames, Int32Codec, opts...); err != nil {
			return 0, err
		}
	}
	n := 0
	write := func(key string, m *Matrix) error { return nil }
	var closeOut func() error
	var abortOut func()
	if o.Compress {
		w, err := OpenTableWriter(out, CompressedMatrixCodec, opts...)
		if err != nil {
			return 0, err
		}
		var c CompressedMatrix
		write = func(key string, m *Matrix) error {
			if err := c.CompressFrom(m, method); err != nil {
				return &Error{File: in, Key: key, Offset: -1, Err: err}
			}
			return w.Write(key, c)
		}
		closeOut, abortOut = w.Close, w.Abort
	} else {
		w, err := OpenTableWriter(out, MatrixCodec, opts...)
		if err != nil {
			return 0, err
		}
		write = func(key string, m *Matrix) error { return w.Write(key, *m) }
		closeOut, abortOut = w.Close, w.Abort
	}
	for r.Next() {
		m := r.Value()
		if err := write(r.Key(), &m); err != nil {
			abortOut()
			return n, err
		}
		if frames != nil {
			if err := frames.Write(r.Key(), int32(m.Rows)); err != nil {
				abortOut()
				frames.Abort()
				return n, err
			}
		}
		n++
	}
	if err = r.Close(); err != nil {
		abortOut()
		if frames != nil {
			frames.Abort()
		}
		return n, err
	}
	err = closeOut()
	if frames != nil {
		if cerr := frames.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil && n == 0 {
		err = ErrNoneCopied
	}
	return n, err
}

// CopyMatrixOptions are copy-matrix's options.
type CopyMatrixOptions struct {
	Binary             bool    // --binary (single files)
	Scale              float64 // --scale
	ApplyLog           bool    // --apply-log (after flooring at 1e-20)
	ApplyExp           bool    // --apply-exp
	ApplyPower         float64 // --apply-power
	ApplySoftmaxPerRow bool    // --apply-softmax-per-row
}

// DefaultCopyMatrixOptions returns Kaldi's defaults.
func DefaultCopyMatrixOptions() CopyMatrixOptions {
	return CopyMatrixOptions{Binary: true, Scale: 1, ApplyPower: 1}
}

// Register adds the options to fs.
func (o *CopyMatrixOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.Binary, "binary", o.Binary, "Write in binary mode (only relevant if output is a wxfilename)")
	fs.Float64Var(&o.Scale, "scale", o.Scale, "This option can be used to scale the matrices being copied.")
	fs.BoolVar(&o.ApplyLog, "apply-log", o.ApplyLog, "This option can be used to apply log on the matrices. Must be avoided if matrix has negative quantities.")
	fs.BoolVar(&o.ApplyExp, "apply-exp", o.ApplyExp, "This option can be used to apply exp on the matrices")
	fs.Float64Var(&o.ApplyPower, "apply-power", o.ApplyPower, "This option can be used to apply a power on the matrices")
	fs.BoolVar(&o.ApplySoftmaxPerRow, "apply-softmax-per-row", o.ApplySoftmaxPerRow, "This option can be used to Apply softmax per row")
}

// transform applies the options in Kaldi's order: scale, log, exp, softmax,
// power. The element functions run in float64 and round to float32 (Kaldi
// uses logf/expf; results may differ in the last bit).
func (o *CopyMatrixOptions) transform(m *Matrix) {
	d := m.Data[:m.Rows*m.Cols]
	if o.Scale != 1 {
		s := float32(o.Scale)
		for i := range d {
			d[i] *= s
		}
	}
	if o.ApplyLog {
		for i, x := range d {
			d[i] = float32(math.Log(float64(max(x, 1e-20))))
		}
	}
	if o.ApplyExp {
		for i, x := range d {
			d[i] = float32(math.Exp(float64(x)))
		}
	}
	if o.ApplySoftmaxPerRow {
		for r := 0; r < m.Rows; r++ {
			row := m.Row(r)
			mx := float32(math.Inf(-1))
			for _, x := range row {
				mx = max(mx, x)
			}
			var sum float64
			for j, x := range row {
				e := math.Exp(float64(x - mx))
				row[j] = float32(e)
				sum += e
			}
			for j := range row {
				row[j] = float32(float64(row[j]) / sum)
			}
		}
	}
	if o.ApplyPower != 1 {
		for i, x := range d {
			d[i] = float32(math.Pow(float64(x), o.ApplyPower))
		}
	}
}

// CopyMatrix is copy-matrix: tables when in and out are specifiers, a single
// matrix file otherwise (mixing is an error).
func CopyMatrix(in, out string, o CopyMatrixOptions, opts ...Option) (int, error) {
	if (o.ApplyLog && o.ApplyExp) || (o.ApplySoftmaxPerRow && o.ApplyExp) || (o.ApplySoftmaxPerRow && o.ApplyLog) {
		return 0, errors.New("only one of apply-log, apply-exp and apply-softmax-per-row can be given")
	}
	return copyObjects(in, out, MatrixCodec, o.Binary, func(m *Matrix) { o.transform(m) }, opts)
}

// CopyVectorOptions are copy-vector's options.
type CopyVectorOptions struct {
	Binary    bool // --binary (single files)
	ChangeDim int  // --change-dim: truncate or zero-pad to this dimension (-1: keep)
}

// DefaultCopyVectorOptions returns Kaldi's defaults.
func DefaultCopyVectorOptions() CopyVectorOptions {
	return CopyVectorOptions{Binary: true, ChangeDim: -1}
}

// Register adds the options to fs.
func (o *CopyVectorOptions) Register(fs *flag.FlagSet) {
	fs.BoolVar(&o.Binary, "binary", o.Binary, "Write in binary mode (only relevant if output is a wxfilename)")
	fs.IntVar(&o.ChangeDim, "change-dim", o.ChangeDim, "Use this option to truncate or zero-pad the vectors.")
}

// CopyVector is copy-vector. (Kaldi's table mode ignores --change-dim
// through a bug, writing the unchanged vector; we apply it in both modes.)
func CopyVector(in, out string, o CopyVectorOptions, opts ...Option) (int, error) {
	return copyObjects(in, out, VectorCodec, o.Binary, func(v *Vector) {
		if o.ChangeDim >= 0 {
			n := len(*v)
			nv := make(Vector, o.ChangeDim)
			copy(nv, (*v)[:min(n, o.ChangeDim)])
			*v = nv
		}
	}, opts)
}

// CopyIntVector is copy-int-vector. In single-file mode the file holds a
// vector as Kaldi's WriteIntegerVector writes it (not the table layout).
func CopyIntVector(in, out string, binary bool, opts ...Option) (int, error) {
	if IsRspecifier(in) || IsWspecifier(out) {
		return copyObjects(in, out, IntVectorCodec, binary, nil, opts)
	}
	return copyObjects(in, out, Codec[IntVector](integerVectorCodec{}), binary, nil, opts)
}

// integerVectorCodec is Kaldi's ReadIntegerVector/WriteIntegerVector as a
// codec (single files of copy-int-vector).
type integerVectorCodec struct{}

func (integerVectorCodec) Read(r *Reader, binary bool, v *IntVector) error {
	d, err := r.ReadIntVector(binary, *v)
	*v = d
	return err
}

func (integerVectorCodec) Write(w *Writer, binary bool, v *IntVector) error {
	return w.WriteIntVector(binary, *v)
}

// copyObjects is the shared body of the copy tools: a table copy when in is
// an rspecifier and out a wspecifier, a single-object copy when neither is.
func copyObjects[T any](in, out string, c Codec[T], binary bool, edit func(*T), opts []Option) (int, error) {
	inTable, outTable := IsRspecifier(in), IsWspecifier(out)
	if inTable != outTable {
		return 0, ErrMixed
	}
	if !inTable {
		var v T
		if err := ReadObject(in, c, &v, opts...); err != nil {
			return 0, err
		}
		if edit != nil {
			edit(&v)
		}
		return 1, WriteObject(out, c, binary, &v, opts...)
	}
	r, err := OpenSequentialReader(in, c, opts...)
	if err != nil {
		return 0, err
	}
	defer r.Close()
	r.SetReuse(true)
	w, err := OpenTableWriter(out, c, opts...)
	if err != nil {
		return 0, err
	}
	n := 0
	for r.Next() {
		v := r.Value()
		if edit != nil {
			edit(&v)
		}
		if err := w.Write(r.Key(), v); err != nil {
			w.Abort()
			return n, err
		}
		n++
	}
	if err = r.Close(); err != nil {
		w.Abort()
		return n, err
	}
	err = w.Close()
	if err == nil && n == 0 {
		err = ErrNoneCopied
	}
	return n, err
}

// FeatToDim is feat-to-dim: with a wspecifier as out it writes every
// utterance's dimension as an int32 table; otherwise it writes the first
// matrix's dimension and a newline to the wxfilename out ("-": standard
// output). An empty input is an error.
func FeatToDim(in, out string, opts ...Option) error {
	r, err := OpenSequentialReader(in, MatrixCodec, opts...)
	if err != nil {
		return err
	}
	defer r.Close()
	r.SetReuse(true)
	if IsWspecifier(out) {
		w, err := OpenTableWriter(out, Int32Codec, opts...)
		if err != nil {
			return err
		}
		for r.Next() {
			if err := w.Write(r.Key(), int32(r.Value().Cols)); err != nil {
				w.Abort()
				return err
			}
		}
		if err := r.Close(); err != nil {
			w.Abort()
			return err
		}
		return w.Close()
	}
	if !r.Next() {
		if err := r.Close(); err != nil {
			return err
		}
		return fmt.Errorf("could not read any features from %s (empty archive?)", in)
	}
	dim := r.Value().Cols
	r.Close() // reading stops early: a pipe's producer is not blamed
	o, err := OpenOutput(out, opts...)
	if err != nil {
		return err
	}
	o.Writer().WriteString(itoa(dim) + "\n")
	return o.Close()
}

// FeatToLen is feat-to-len: with out, it writes every utterance's number of
// frames as an int32 table; with out == "", it writes the total number of
// frames and a newline to stdout.
func FeatToLen(in, out string, stdout io.Writer, opts ...Option) error {
	r, err := OpenSequentialReader(in, MatrixCodec, opts...)
	if err != nil {
		return err
	}
	defer r.Close()
	r.SetReuse(true)
	if out == "" {
		var total int64
		for r.Next() {
			total += int64(r.Value().Rows)
		}
		if err := r.Close(); err != nil {
			return err
		}
		_, err := fmt.Fprintln(stdout, total)
		return err
	}
	w, err := OpenTableWriter(out, Int32Codec, opts...)
	if err != nil {
		return err
	}
	for r.Next() {
		if err := w.Write(r.Key(), int32(r.Value().Rows)); err != nil {
			w.Abort()
			return err
		}
	}
	if err := r.Close(); err != nil {
		w.Abort()
		return err
	}
	return w.Close()
}
