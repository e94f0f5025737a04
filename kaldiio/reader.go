package kaldiio

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"unsafe"
)

// maxTokenLen bounds tokens and keys, so a corrupt file cannot make a
// reader buffer without end. Kaldi's longest tokens are ~30 bytes.
const maxTokenLen = 1 << 16

// Reader reads Kaldi's basic types (Kaldi's io-funcs: ReadToken,
// ExpectToken, ReadBasicType, ReadIntegerVector, InitKaldiInputStream) from a
// byte stream, in binary or text mode, as encoding/binary reads Go values. It
// counts the bytes and lines it consumes, so every error it returns is an
// *Error naming the stream, the byte offset and the line.
//
// Binary mode is chosen per call, as in Kaldi, because one archive holds many
// objects, each with its own "\0B" marker (or none, for text objects).
type Reader struct {
	br      *bufio.Reader
	name    string
	off     int64 // bytes consumed
	lines   int   // newlines consumed
	remain  int64 // bytes left in the stream when known (regular file), else -1
	tokOff  int64 // offset where the last token read began
	tokLin  int
	wbuf    []byte // word buffer reused by readWord
	lbuf    []byte // line buffer reused by readLine
	scratch [16]byte
}

// NewReader returns a Reader over r. name is used in error messages (a file
// name or rxfilename). If r is a *bufio.Reader it is used as is.
func NewReader(r io.Reader, name string) *Reader {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 64<<10)
	}
	return &Reader{br: br, name: name, remain: -1}
}

// SetSize tells the Reader how many bytes the stream holds from its current
// position (e.g. a file's size minus the offset). With it, a corrupt
// dimension that asks for more bytes than remain is an error before anything
// is allocated; without it, large objects are read in growing chunks.
func (r *Reader) SetSize(n int64) { r.remain = n }

// Name returns the stream name given to NewReader.
func (r *Reader) Name() string { return r.name }

// Offset returns the number of bytes consumed so far (plus the starting
// offset set by SetOffset).
func (r *Reader) Offset() int64 { return r.off }

// SetOffset sets the offset reported in errors, for a stream that starts in
// the middle of a file (an scp entry "foo.ark:1234").
func (r *Reader) SetOffset(off int64) { r.off = off }

// Line returns the 1-based line number of the next byte.
func (r *Reader) Line() int { return r.lines + 1 }

// Errorf returns an *Error wrapping ErrFormat at the current offset and line.
func (r *Reader) Errorf(format string, a ...any) error {
	return r.errAt(formatf(format, a...))
}

func (r *Reader) errAt(err error) error {
	return &Error{File: r.name, Offset: r.off, Line: r.lines + 1, Err: err}
}

// eofErr turns a read error into a placed error; io.EOF inside an object is
// io.ErrUnexpectedEOF.
func (r *Reader) eofErr(err error, what string) error {
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	return r.errAt(fmt.Errorf("reading %s: %w", what, err))
}

func (r *Reader) consumed(p []byte) {
	r.off += int64(len(p))
	if r.remain >= 0 {
		r.remain -= int64(len(p))
	}
	if len(p) <= 16 { // the fields of binary objects: no call for a few bytes
		for _, c := range p {
			if c == '\n' {
				r.lines++
			}
		}
		return
	}
	r.lines += bytes.Count(p, []byte{'\n'})
}

// Read implements io.Reader, counting what it returns.
func (r *Reader) Read(p []byte) (int, error) {
	n, err := r.br.Read(p)
	r.consumed(p[:n])
	return n, err
}

// ReadByte reads one byte.
func (r *Reader) ReadByte() (byte, error) {
	c, err := r.br.ReadByte()
	if err == nil {
		r.off++
		if r.remain > 0 {
			r.remain--
		}
		if c == '\n' {
			r.lines++
		}
	}
	return c, err
}

// Peek returns the next byte without consuming it; io.EOF at the end.
func (r *Reader) Peek() (byte, error) {
	b, err := r.br.Peek(1)
	if err != nil {
		return 0, err
	}
	return b[0], nil
}

// ReadFull reads exactly len(p) bytes; a short stream is an *Error wrapping
// io.ErrUnexpectedEOF.
func (r *Reader) ReadFull(p []byte) error {
	n, err := io.ReadFull(r.br, p)
	r.consumed(p[:n])
	if err != nil {
		return r.eofErr(err, fmt.Sprintf("%d bytes", len(p)))
	}
	return nil
}

// readPayload is ReadFull for binary payloads (matrix data, compressed
// bytes): it does not count newlines, which are meaningless there and cost
// a pass over the data. (Line numbers are for text; offsets stay exact.)
func (r *Reader) readPayload(p []byte) error {
	n, err := io.ReadFull(r.br, p)
	r.off += int64(n)
	if r.remain >= 0 {
		r.remain -= int64(n)
	}
	if err != nil {
		return r.eofErr(err, fmt.Sprintf("%d bytes", len(p)))
	}
	return nil
}

// Discard skips n bytes.
func (r *Reader) Discard(n int64) error {
	for n > 0 {
		k := int(min(n, 1<<30))
		d, err := r.br.Discard(k)
		r.off += int64(d)
		if r.remain >= 0 {
			r.remain -= int64(d)
		}
		n -= int64(d)
		if err != nil {
			return r.eofErr(err, "skipped bytes")
		}
	}
	return nil
}

// AtEOF reports whether the stream has no more bytes.
func (r *Reader) AtEOF() bool {
	_, err := r.br.Peek(1)
	return err != nil
}

// checkAvailable fails when n bytes are known not to be there: the guard that
// keeps a corrupt header from allocating gigabytes.
// what is called only on failure, so the check allocates nothing.
func (r *Reader) checkAvailable(n int64, what func() string) error {
	if n < 0 {
		return r.Errorf("%s: negative size", what())
	}
	if r.remain >= 0 && n > r.remain {
		return r.errAt(fmt.Errorf("%w: %s needs %d bytes but only %d remain: %w", ErrFormat, what(), n, r.remain, io.ErrUnexpectedEOF))
	}
	return nil
}

// ReadBinaryHeader reads Kaldi's binary marker as InitKaldiInputStream does:
// "\0B" means binary (consumed, returns true); any other byte means text
// (nothing consumed, returns false). "\0" followed by anything but 'B' is an
// error.
func (r *Reader) ReadBinaryHeader() (binary bool, err error) {
	b, err := r.br.Peek(2)
	if len(b) == 0 {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return false, r.eofErr(err, "binary marker")
	}
	if b[0] != 0 {
		return false, nil
	}
	if len(b) < 2 || b[1] != 'B' {
		return false, r.Errorf(`bad binary marker: "\x00" not followed by 'B'`)
	}
	r.Discard(2)
	return true, nil
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// SkipSpace consumes whitespace (C++ `is >> std::ws`). It returns io.EOF
// unchanged when the stream ends.
func (r *Reader) SkipSpace() error {
	for {
		c, err := r.br.ReadByte()
		if err != nil {
			return err
		}
		if !isSpace(c) {
			r.br.UnreadByte()
			return nil
		}
		r.off++
		if r.remain > 0 {
			r.remain--
		}
		if c == '\n' {
			r.lines++
		}
	}
}

// readWord skips leading whitespace and returns the following run of
// non-space bytes, stopping also before any byte in stop. The returned slice
// is valid until the next read.
func (r *Reader) readWord(stop string, what string) ([]byte, error) {
	if err := r.SkipSpace(); err != nil {
		return nil, r.eofErr(err, what)
	}
	buf := r.wbuf[:0]
	defer func() { r.wbuf = buf }()
	for {
		c, err := r.br.ReadByte()
		if err != nil {
			if err == io.EOF && len(buf) > 0 {
				break
			}
			return nil, r.eofErr(err, what)
		}
		if isSpace(c) || (stop != "" && strings.IndexByte(stop, c) >= 0) {
			r.br.UnreadByte()
			break
		}
		r.off++
		if r.remain > 0 {
			r.remain--
		}
		buf = append(buf, c)
		if len(buf) > maxTokenLen {
			return nil, r.Errorf("%s longer than %d bytes", what, maxTokenLen)
		}
	}
	return buf, nil
}

// ReadToken reads a token as Kaldi's ReadToken: leading whitespace is
// skipped, the token is the following non-space bytes, and exactly one
// whitespace byte after it is consumed (it must be there).
func (r *Reader) ReadToken(binary bool) (string, error) {
	w, err := r.readTokenBytes()
	return string(w), err
}

// readTokenBytes is ReadToken without the string: the bytes are valid until
// the next read (codecs compare them with string(tok) == "FM", which does
// not allocate).
func (r *Reader) readTokenBytes() ([]byte, error) {
	if err := r.SkipSpace(); err != nil {
		return nil, r.eofErr(err, "token")
	}
	r.tokOff, r.tokLin = r.off, r.lines
	w, err := r.readWord("", "token")
	if err != nil {
		return nil, err
	}
	c, err := r.ReadByte()
	if err != nil {
		if err == io.EOF {
			// A token at the very end of a text stream is fine.
			return w, nil
		}
		return nil, r.eofErr(err, "token")
	}
	if !isSpace(c) {
		return nil, &Error{File: r.name, Offset: r.tokOff, Line: r.tokLin + 1, Err: formatf("expected space after token %q", w)}
	}
	return w, nil
}

// ExpectToken reads a token and fails unless it is want.
func (r *Reader) ExpectToken(binary bool, want string) error {
	off, line := r.off, r.lines
	tok, err := r.ReadToken(binary)
	if err != nil {
		return err
	}
	if tok != want {
		return &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("expected token %q, got %q", want, tok)}
	}
	return nil
}

// PeekToken returns the first byte of the next token without consuming it,
// skipping whitespace in text mode (Kaldi's Peek). Kaldi's PeekToken, which
// skips a leading '<', is PeekToken followed by checking for '<' yourself.
func (r *Reader) PeekToken(binary bool) (byte, error) {
	if !binary {
		if err := r.SkipSpace(); err != nil {
			return 0, r.eofErr(err, "token")
		}
	}
	c, err := r.Peek()
	if err != nil {
		return 0, r.eofErr(err, "token")
	}
	return c, nil
}

// BasicInt are the integer types Kaldi writes with ReadBasicType/WriteBasicType.
type BasicInt interface {
	~int8 | ~int16 | ~int32 | ~int64 | ~uint8 | ~uint16 | ~uint32 | ~uint64
}

// ReadBasicInt reads an integer as Kaldi's ReadBasicType: in binary, a size
// byte (sizeof(T), negated for unsigned types) then sizeof(T) little-endian
// bytes; a size byte that does not match T is an error. In text, a decimal
// number after optional whitespace.
func ReadBasicInt[T BasicInt](r *Reader, binary bool) (T, error) {
	var zero T
	size := int(unsafe.Sizeof(zero))
	signed := ^zero < 0
	if binary {
		off, line := r.off, r.lines
		c, err := r.ReadByte()
		if err != nil {
			return 0, r.eofErr(err, "integer size byte")
		}
		want := int8(size)
		if !signed {
			want = -want
		}
		if int8(c) != want {
			return 0, &Error{File: r.name, Offset: off, Line: line + 1,
				Err: formatf("integer size byte is %d, expected %d (a %d-byte %s integer)", int8(c), want, size, map[bool]string{true: "signed", false: "unsigned"}[signed])}
		}
		b := r.scratch[:size]
		if err := r.ReadFull(b); err != nil {
			return 0, err
		}
		var u uint64
		for i := size - 1; i >= 0; i-- {
			u = u<<8 | uint64(b[i])
		}
		return T(u), nil
	}
	off, line := r.off, r.lines
	w, err := r.readWord("[]", "integer")
	if err != nil {
		return 0, err
	}
	var v T
	if signed {
		x, perr := strconv.ParseInt(string(w), 10, size*8)
		err, v = perr, T(x)
	} else {
		x, perr := strconv.ParseUint(string(w), 10, size*8)
		err, v = perr, T(x)
	}
	if err != nil {
		return 0, &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("bad integer %q", w)}
	}
	return v, nil
}

// ReadInt32 reads an int32 (binary: size byte 4, then 4 bytes LE).
func (r *Reader) ReadInt32(binary bool) (int32, error) { return ReadBasicInt[int32](r, binary) }

// ReadInt64 reads an int64 (binary: size byte 8, then 8 bytes LE).
func (r *Reader) ReadInt64(binary bool) (int64, error) { return ReadBasicInt[int64](r, binary) }

// ReadFloat64 reads a float as Kaldi's ReadBasicType<double>: binary size
// byte 8 (double) or 4 (float, converted); text: a number, "inf", "nan".
func (r *Reader) ReadFloat64(binary bool) (float64, error) {
	if binary {
		off, line := r.off, r.lines
		c, err := r.ReadByte()
		if err != nil {
			return 0, r.eofErr(err, "float size byte")
		}
		switch c {
		case 4:
			b := r.scratch[:4]
			if err := r.ReadFull(b); err != nil {
				return 0, err
			}
			return float64(math.Float32frombits(le32(b))), nil
		case 8:
			b := r.scratch[:8]
			if err := r.ReadFull(b); err != nil {
				return 0, err
			}
			return math.Float64frombits(le64(b)), nil
		}
		return 0, &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("float size byte is %d, expected 4 or 8", int8(c))}
	}
	return r.readTextFloat(64)
}

// ReadFloat32 reads a float as Kaldi's ReadBasicType<float> (a double in the
// stream is converted).
func (r *Reader) ReadFloat32(binary bool) (float32, error) {
	if binary {
		v, err := r.ReadFloat64(true)
		return float32(v), err
	}
	v, err := r.readTextFloat(32)
	return float32(v), err
}

func (r *Reader) readTextFloat(bits int) (float64, error) {
	off, line := r.off, r.lines
	w, err := r.readWord("[]", "number")
	if err != nil {
		return 0, err
	}
	v, ok := parseFloat(w, bits)
	if !ok {
		return 0, &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("bad number %q", w)}
	}
	return v, nil
}

// ReadBool reads a bool as Kaldi does: 'T' or 'F' (text mode skips
// whitespace first).
func (r *Reader) ReadBool(binary bool) (bool, error) {
	if !binary {
		if err := r.SkipSpace(); err != nil {
			return false, r.eofErr(err, "bool")
		}
	}
	off, line := r.off, r.lines
	c, err := r.ReadByte()
	if err != nil {
		return false, r.eofErr(err, "bool")
	}
	switch c {
	case 'T':
		return true, nil
	case 'F':
		return false, nil
	}
	return false, &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("bool is %q, expected 'T' or 'F'", c)}
}

// ReadIntVector reads an int32 vector as Kaldi's ReadIntegerVector (used
// inside TransitionModel, trees, ...): binary is the element size byte 4, a
// raw int32 count and the raw elements; text is "[ 1 2 3 ]". dst is reused
// when large enough. (Alignment tables use IntVectorCodec, a different
// layout with a size byte before every element.)
func (r *Reader) ReadIntVector(binary bool, dst []int32) ([]int32, error) {
	dst = dst[:0]
	if binary {
		off, line := r.off, r.lines
		c, err := r.ReadByte()
		if err != nil {
			return nil, r.eofErr(err, "integer vector")
		}
		if c != 4 {
			return nil, &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("integer vector element size is %d, expected 4", int8(c))}
		}
		b := r.scratch[:4]
		if err := r.ReadFull(b); err != nil {
			return nil, err
		}
		n := int32(le32(b))
		if n < 0 {
			return nil, r.Errorf("integer vector has negative length %d", n)
		}
		if err := r.checkAvailable(int64(n)*4, func() string { return "integer vector" }); err != nil {
			return nil, err
		}
		return readRaw(r, dst, int(n))
	}
	if err := r.SkipSpace(); err != nil {
		return nil, r.eofErr(err, "integer vector")
	}
	if c, _ := r.Peek(); c != '[' {
		return nil, r.Errorf("integer vector: expected '[', got %q", c)
	}
	r.ReadByte()
	for {
		if err := r.SkipSpace(); err != nil {
			return nil, r.eofErr(err, "integer vector")
		}
		if c, _ := r.Peek(); c == ']' {
			r.ReadByte()
			return dst, nil
		}
		v, err := r.ReadInt32(false)
		if err != nil {
			return nil, err
		}
		dst = append(dst, v)
	}
}

// chunkElems bounds how many elements are allocated ahead of the bytes
// actually read when the stream size is unknown.
const chunkElems = 1 << 20

// readRaw reads n raw little-endian elements into dst[:0] (reusing its
// storage), growing it only as the bytes arrive when the stream size is
// unknown, so a corrupt count cannot allocate more than the stream holds.
// real is an element type of Kaldi's float and double matrices and vectors.
type real interface{ float32 | float64 }

// readRawAs reads n elements stored as S into dst's storage as T, reading
// straight into dst when S is T and converting otherwise.
func readRawAs[S, T real](r *Reader, dst []T, n int) ([]T, error) {
	if same, ok := any(dst[:0]).([]S); ok {
		d, err := readRaw(r, same, n)
		if err != nil {
			return nil, err
		}
		return any(d).([]T), nil
	}
	d, err := readRaw[S](r, nil, n)
	if err != nil {
		return nil, err
	}
	out := dst[:0]
	if cap(out) < n {
		out = make([]T, n)
	}
	out = out[:n]
	for i, x := range d {
		out[i] = T(x)
	}
	return out, nil
}

func readRaw[E float32 | float64 | int32](r *Reader, dst []E, n int) ([]E, error) {
	if cap(dst) >= n {
		dst = dst[:n]
		if err := r.readPayload(rawBytes(dst)); err != nil {
			return nil, err
		}
		return dst, nil
	}
	if r.remain >= 0 {
		dst = make([]E, n)
		if err := r.readPayload(rawBytes(dst)); err != nil {
			return nil, err
		}
		return dst, nil
	}
	dst = dst[:0]
	for len(dst) < n {
		k := min(n-len(dst), max(chunkElems, len(dst)))
		start := len(dst)
		dst = append(dst, make([]E, k)...)
		if err := r.readPayload(rawBytes(dst[start:])); err != nil {
			return nil, err
		}
	}
	return dst, nil
}

// rawBytes views a slice of fixed-size numbers as its bytes (little-endian on
// every platform this toolkit supports: amd64, arm64).
func rawBytes[E float32 | float64 | int32](s []E) []byte {
	if len(s) == 0 {
		return nil
	}
	var z E
	return unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(s))), len(s)*int(unsafe.Sizeof(z)))
}

func le32(b []byte) uint32 {
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func le64(b []byte) uint64 {
	return uint64(le32(b)) | uint64(le32(b[4:]))<<32
}
