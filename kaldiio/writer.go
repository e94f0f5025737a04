package kaldiio

import (
	"bufio"
	"io"
	"math"
	"unsafe"
)

// Writer writes Kaldi's basic types (Kaldi's io-funcs: WriteToken,
// WriteBasicType, WriteIntegerVector, InitKaldiOutputStream) in binary or
// text mode. It buffers; call Flush when done. Errors are sticky (as
// bufio.Writer's): after one, every method returns it.
type Writer struct {
	bw  *bufio.Writer
	off int64
	buf []byte   // scratch for number formatting
	sc  [16]byte // scratch for binary values (a local array would escape)
}

// NewWriter returns a Writer over w. If w is a *bufio.Writer it is used as is.
func NewWriter(w io.Writer) *Writer {
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriterSize(w, 64<<10)
	}
	return &Writer{bw: bw}
}

// Offset returns the number of bytes written so far.
func (w *Writer) Offset() int64 { return w.off }

// Write implements io.Writer.
func (w *Writer) Write(p []byte) (int, error) {
	n, err := w.bw.Write(p)
	w.off += int64(n)
	return n, err
}

// WriteString writes s.
func (w *Writer) WriteString(s string) error {
	n, err := w.bw.WriteString(s)
	w.off += int64(n)
	return err
}

// WriteByte writes one byte.
func (w *Writer) WriteByte(c byte) error {
	err := w.bw.WriteByte(c)
	if err == nil {
		w.off++
	}
	return err
}

// Flush writes buffered bytes to the underlying writer.
func (w *Writer) Flush() error { return w.bw.Flush() }

// WriteBinaryHeader writes Kaldi's binary marker "\0B"
// (InitKaldiOutputStream in binary mode).
func (w *Writer) WriteBinaryHeader() error {
	w.WriteByte(0)
	return w.WriteByte('B')
}

// WriteToken writes tok followed by one space, as Kaldi's WriteToken does in
// both modes.
func (w *Writer) WriteToken(binary bool, tok string) error {
	w.WriteString(tok)
	return w.WriteByte(' ')
}

// WriteBasicInt writes an integer as Kaldi's WriteBasicType: binary is a
// size byte (negated for unsigned types) then the little-endian bytes; text
// is the decimal number followed by a space.
func WriteBasicInt[T BasicInt](w *Writer, binary bool, v T) error {
	size := int(unsafe.Sizeof(v))
	if binary {
		b := w.sc[:9]
		b[0] = byte(int8(size))
		if ^T(0) > 0 { // unsigned
			b[0] = byte(-int8(size))
		}
		u := uint64(v)
		for i := 0; i < size; i++ {
			b[1+i] = byte(u >> (8 * i))
		}
		_, err := w.Write(b[:1+size])
		return err
	}
	w.buf = w.buf[:0]
	if ^T(0) > 0 {
		w.buf = appendUint(w.buf, uint64(v))
	} else {
		w.buf = appendInt(w.buf, int64(v))
	}
	w.buf = append(w.buf, ' ')
	_, err := w.Write(w.buf)
	return err
}

// WriteInt32 writes an int32 (binary: 0x04 then 4 bytes LE; text: "v ").
func (w *Writer) WriteInt32(binary bool, v int32) error { return WriteBasicInt(w, binary, v) }

// WriteInt64 writes an int64 (binary: 0x08 then 8 bytes LE; text: "v ").
func (w *Writer) WriteInt64(binary bool, v int64) error { return WriteBasicInt(w, binary, v) }

// WriteFloat32 writes a float (binary: 0x04 then 4 bytes LE; text: the
// number as C++ prints it at precision 7, then a space).
func (w *Writer) WriteFloat32(binary bool, v float32) error {
	if binary {
		b := w.sc[:5]
		b[0] = 4
		u := math.Float32bits(v)
		b[1], b[2], b[3], b[4] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
		_, err := w.Write(b)
		return err
	}
	return w.writeTextFloat(float64(v))
}

// WriteFloat64 writes a double (binary: 0x08 then 8 bytes LE; text as
// WriteFloat32, also at precision 7).
func (w *Writer) WriteFloat64(binary bool, v float64) error {
	if binary {
		b := w.sc[:9]
		b[0] = 8
		u := math.Float64bits(v)
		for i := 0; i < 8; i++ {
			b[1+i] = byte(u >> (8 * i))
		}
		_, err := w.Write(b)
		return err
	}
	return w.writeTextFloat(v)
}

func (w *Writer) writeTextFloat(v float64) error {
	w.buf = append(AppendFloat(w.buf[:0], v), ' ')
	_, err := w.Write(w.buf)
	return err
}

// WriteBool writes 'T' or 'F' (text mode adds a space), as Kaldi.
func (w *Writer) WriteBool(binary bool, v bool) error {
	c := byte('F')
	if v {
		c = 'T'
	}
	w.WriteByte(c)
	if !binary {
		return w.WriteByte(' ')
	}
	return nil
}

// WriteIntVector writes an int32 vector as Kaldi's WriteIntegerVector:
// binary is 0x04, the raw int32 count and the raw elements; text is
// "[ 1 2 3 ]\n".
func (w *Writer) WriteIntVector(binary bool, v []int32) error {
	if binary {
		b := w.sc[:5]
		b[0] = 4
		n := uint32(len(v))
		b[1], b[2], b[3], b[4] = byte(n), byte(n>>8), byte(n>>16), byte(n>>24)
		w.Write(b)
		_, err := w.Write(rawBytes(v))
		return err
	}
	w.WriteString("[ ")
	for _, x := range v {
		w.buf = append(appendInt(w.buf[:0], int64(x)), ' ')
		w.Write(w.buf)
	}
	return w.WriteString("]\n")
}

func appendInt(b []byte, v int64) []byte {
	if v < 0 {
		b = append(b, '-')
		return appendUint(b, uint64(-v))
	}
	return appendUint(b, uint64(v))
}

func appendUint(b []byte, v uint64) []byte {
	var d [20]byte
	i := len(d)
	for {
		i--
		d[i] = byte('0' + v%10)
		v /= 10
		if v == 0 {
			break
		}
	}
	return append(b, d[i:]...)
}
