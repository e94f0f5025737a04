package kaldiio

import (
	"math"
	"sync"
)

// cmPool holds compressed payload buffers, so decompressing while streaming
// allocates nothing per matrix.
var cmPool = sync.Pool{New: func() any { return new(CompressedMatrix) }}

// maxDim bounds a single matrix or vector dimension read from a file. Kaldi
// stores them as int32; anything beyond is corrupt.
const maxDim = math.MaxInt32

// readMatrixHeader reads the int32 rows and cols after an FM/DM token and
// checks that rows*cols*elemSize bytes can be there.
func readMatrixHeader(r *Reader, binary bool, elemSize int64, what string) (rows, cols int, err error) {
	off, line := r.off, r.lines
	r32, err := r.ReadInt32(binary)
	if err != nil {
		return 0, 0, err
	}
	c32, err := r.ReadInt32(binary)
	if err != nil {
		return 0, 0, err
	}
	if r32 < 0 || c32 < 0 {
		return 0, 0, &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("%s has negative dimension %d x %d", what, r32, c32)}
	}
	if r32 == 0 || c32 == 0 {
		return 0, 0, nil // Kaldi stores any empty matrix as 0 x 0
	}
	n := int64(r32) * int64(c32) // < 2^62: no overflow
	if n > math.MaxInt64/elemSize || n > math.MaxInt/2 {
		return 0, 0, &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("%s of %d x %d is absurdly large", what, r32, c32)}
	}
	if err := r.checkAvailable(n*elemSize, func() string { return what + " " + itoa(int(r32)) + " x " + itoa(int(c32)) }); err != nil {
		return 0, 0, err
	}
	return int(r32), int(c32), nil
}

// readBinaryMatrix reads a binary FM or DM matrix, token included, into
// dst's storage, converting when the file's precision is not T's (Kaldi's
// Matrix<Real>::Read accepts either). want lists the tokens for the error.
func readBinaryMatrix[T real](r *Reader, dst []T, want string) (rows, cols int, data []T, err error) {
	tok, err := r.readTokenBytes()
	if err != nil {
		return 0, 0, nil, err
	}
	switch string(tok) {
	case "FM":
		if rows, cols, err = readMatrixHeader(r, true, 4, "float matrix"); err == nil {
			data, err = readRawAs[float32](r, dst, rows*cols)
		}
	case "DM":
		if rows, cols, err = readMatrixHeader(r, true, 8, "double matrix"); err == nil {
			data, err = readRawAs[float64](r, dst, rows*cols)
		}
	default:
		err = r.unknownToken(string(tok), want)
	}
	if err != nil {
		return 0, 0, nil, err
	}
	return rows, cols, data, nil
}

func itoa(v int) string { return string(appendInt(nil, int64(v))) }

type matrixCodec struct{}

func (matrixCodec) Read(r *Reader, binary bool, m *Matrix) error {
	if !binary {
		rows, cols, data, err := readTextMatrix(r, m.Data)
		if err != nil {
			return err
		}
		m.Rows, m.Cols, m.Data = rows, cols, data
		return nil
	}
	c, err := r.PeekToken(true)
	if err != nil {
		return err
	}
	if c == 'C' {
		cm := cmPool.Get().(*CompressedMatrix)
		defer cmPool.Put(cm)
		if err := cm.read(r); err != nil {
			return err
		}
		cm.DecompressTo(m)
		return nil
	}
	rows, cols, data, err := readBinaryMatrix(r, m.Data, "FM, DM, CM, CM2 or CM3 (a matrix)")
	if err != nil {
		return err
	}
	m.Rows, m.Cols, m.Data = rows, cols, data
	return nil
}

func (matrixCodec) Write(w *Writer, binary bool, m *Matrix) error {
	if binary {
		w.WriteToken(true, "FM")
		w.WriteInt32(true, int32(m.Rows))
		w.WriteInt32(true, int32(m.Cols))
		_, err := w.Write(rawBytes(m.Data[:m.Rows*m.Cols]))
		return err
	}
	return writeTextMatrix(w, m.Rows, m.Cols, func(i int) float64 { return float64(m.Data[i]) })
}

type doubleMatrixCodec struct{}

func (doubleMatrixCodec) Read(r *Reader, binary bool, m *DoubleMatrix) error {
	if !binary {
		rows, cols, data, err := readTextMatrix(r, m.Data)
		if err != nil {
			return err
		}
		m.Rows, m.Cols, m.Data = rows, cols, data
		return nil
	}
	c, err := r.PeekToken(true)
	if err != nil {
		return err
	}
	if c == 'C' {
		var f Matrix
		if err := MatrixCodec.Read(r, true, &f); err != nil {
			return err
		}
		m.Resize(f.Rows, f.Cols)
		for i, x := range f.Data {
			m.Data[i] = float64(x)
		}
		return nil
	}
	rows, cols, data, err := readBinaryMatrix(r, m.Data, "DM, FM, CM, CM2 or CM3 (a matrix)")
	if err != nil {
		return err
	}
	m.Rows, m.Cols, m.Data = rows, cols, data
	return nil
}

func (doubleMatrixCodec) Write(w *Writer, binary bool, m *DoubleMatrix) error {
	if binary {
		w.WriteToken(true, "DM")
		w.WriteInt32(true, int32(m.Rows))
		w.WriteInt32(true, int32(m.Cols))
		_, err := w.Write(rawBytes(m.Data[:m.Rows*m.Cols]))
		return err
	}
	return writeTextMatrix(w, m.Rows, m.Cols, func(i int) float64 { return m.Data[i] })
}

// writeTextMatrix writes Kaldi's text matrix: " [" then, for each row,
// "\n  " and every value followed by a space, then "]\n"; an empty matrix is
// " [ ]\n".
func writeTextMatrix(w *Writer, rows, cols int, at func(int) float64) error {
	if rows == 0 || cols == 0 {
		return w.WriteString(" [ ]\n")
	}
	buf := append(w.buf[:0], " ["...)
	for i := 0; i < rows; i++ {
		buf = append(buf, "\n  "...)
		for j := 0; j < cols; j++ {
			buf = AppendFloat(buf, at(i*cols+j))
			buf = append(buf, ' ')
		}
		if len(buf) > 32<<10 {
			w.Write(buf)
			buf = buf[:0]
		}
	}
	buf = append(buf, "]\n"...)
	_, err := w.Write(buf)
	w.buf = buf[:0]
	return err
}

// readTextMatrix parses Kaldi's text matrix: "[", rows of numbers separated
// by newlines, "]" ("[ ]" is empty). Rows must all have the same length.
// Values are appended to dst[:0] and rounded once to E.
func readTextMatrix[E float32 | float64](r *Reader, dst []E) (rows, cols int, data []E, err error) {
	bits := 32
	var z E
	if any(z) == any(float64(0)) {
		bits = 64
	}
	if err := r.SkipSpace(); err != nil {
		return 0, 0, nil, r.eofErr(err, "text matrix")
	}
	if c, _ := r.Peek(); c != '[' {
		return 0, 0, nil, r.Errorf("text matrix: expected '[', got %q", c)
	}
	r.ReadByte()
	data = dst[:0]
	rowStart := 0
	endRow := func() error {
		n := len(data) - rowStart
		if n == 0 {
			return nil
		}
		if rows == 0 {
			cols = n
		} else if n != cols {
			return r.Errorf("text matrix is ragged: row %d has %d values, row 1 has %d", rows+1, n, cols)
		}
		rows++
		rowStart = len(data)
		return nil
	}
	for {
		c, err := r.Peek()
		if err != nil {
			return 0, 0, nil, r.eofErr(err, "text matrix (no closing ']')")
		}
		switch {
		case c == '\n':
			r.ReadByte()
			if err := endRow(); err != nil {
				return 0, 0, nil, err
			}
		case isSpace(c):
			r.ReadByte()
		case c == ']':
			r.ReadByte()
			if err := endRow(); err != nil {
				return 0, 0, nil, err
			}
			if rows == 0 {
				cols = 0
			}
			return rows, cols, data, nil
		default:
			off, line := r.off, r.lines
			w, err := r.readWord("[]", "matrix value")
			if err != nil {
				return 0, 0, nil, err
			}
			v, ok := parseFloat(w, bits)
			if !ok {
				return 0, 0, nil, &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("text matrix: bad number %q", w)}
			}
			data = append(data, E(v))
		}
	}
}
