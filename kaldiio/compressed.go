package kaldiio

import (
	"errors"
	"fmt"
	"math"
	"slices"
)

// CompressionMethod is Kaldi's CompressionMethod (--compression-method).
type CompressionMethod int

// Kaldi's compression methods, with its numbering.
const (
	// AutomaticMethod (1, the default): SpeechFeature for more than 8 rows,
	// TwoByteAuto otherwise — so real archives mix CM and CM2.
	AutomaticMethod CompressionMethod = 1
	// SpeechFeature (2): token CM, one byte per value with per-column
	// percentile headers.
	SpeechFeature CompressionMethod = 2
	// TwoByteAuto (3): CM2, uint16 per value over the matrix's [min, max].
	TwoByteAuto CompressionMethod = 3
	// TwoByteSignedInteger (4): CM2 over the fixed range [-32768, 32767].
	TwoByteSignedInteger CompressionMethod = 4
	// OneByteAuto (5): CM3, uint8 per value over the matrix's [min, max].
	OneByteAuto CompressionMethod = 5
	// OneByteUnsignedInteger (6): CM3 over the fixed range [0, 255].
	OneByteUnsignedInteger CompressionMethod = 6
	// OneByteZeroOne (7): CM3 over the fixed range [0, 1].
	OneByteZeroOne CompressionMethod = 7
)

// Storage formats of a CompressedMatrix (Kaldi's DataFormat), named by the
// token that announces them.
const (
	FormatCM  = 1 // kOneByteWithColHeaders, token "CM"
	FormatCM2 = 2 // kTwoByte, token "CM2"
	FormatCM3 = 3 // kOneByte, token "CM3"
)

// CompressedMatrix is Kaldi's CompressedMatrix as stored on disk: the
// format (from the token), the global header and the payload bytes exactly as
// they follow the header in the file (for CM: Cols per-column headers of four
// uint16 percentiles, then the bytes column by column; for CM2: uint16 codes
// row-major; for CM3: uint8 codes row-major). Keeping the bytes makes copies
// byte-identical.
type CompressedMatrix struct {
	Format     int // FormatCM, FormatCM2 or FormatCM3
	MinValue   float32
	Range      float32
	Rows, Cols int
	Data       []byte
}

func (c *CompressedMatrix) token() string {
	switch c.Format {
	case FormatCM2:
		return "CM2"
	case FormatCM3:
		return "CM3"
	}
	return "CM"
}

// payloadSize is Kaldi's DataSize minus the header.
func payloadSize(format int, rows, cols int64) int64 {
	switch format {
	case FormatCM:
		return cols * (8 + rows)
	case FormatCM2:
		return 2 * rows * cols
	}
	return rows * cols
}

// read reads a compressed matrix from its token on (binary only).
func (c *CompressedMatrix) read(r *Reader) error {
	tok, err := r.readTokenBytes()
	if err != nil {
		return err
	}
	switch string(tok) {
	case "CM":
		c.Format = FormatCM
	case "CM2":
		c.Format = FormatCM2
	case "CM3":
		c.Format = FormatCM3
	default:
		return r.unknownToken(string(tok), "CM, CM2 or CM3 (a compressed matrix)")
	}
	off, line := r.off, r.lines
	h := r.scratch[:16]
	if err := r.ReadFull(h); err != nil {
		return err
	}
	c.MinValue = math.Float32frombits(le32(h[0:]))
	c.Range = math.Float32frombits(le32(h[4:]))
	rows, cols := int32(le32(h[8:])), int32(le32(h[12:]))
	if cols == 0 { // Kaldi: an empty matrix (whatever num_rows says)
		c.Rows, c.Cols, c.Data = 0, 0, c.Data[:0]
		return nil
	}
	if rows < 0 || cols < 0 {
		return &Error{File: r.name, Offset: off, Line: line + 1, Err: formatf("compressed matrix has negative dimension %d x %d", rows, cols)}
	}
	n := payloadSize(c.Format, int64(rows), int64(cols))
	if err := r.checkAvailable(n, func() string { return fmt.Sprintf("compressed matrix %d x %d", rows, cols) }); err != nil {
		return err
	}
	c.Rows, c.Cols = int(rows), int(cols)
	if rows == 0 {
		// Kaldi still reads the column headers of a 0 x N "CM"; the matrix
		// is empty all the same.
		c.Rows, c.Cols = 0, 0
		defer func() { c.Data = c.Data[:0] }()
	}
	if int64(cap(c.Data)) >= n {
		c.Data = c.Data[:n]
		return r.readPayload(c.Data)
	}
	c.Data = c.Data[:0]
	for int64(len(c.Data)) < n {
		k := min(n-int64(len(c.Data)), max(int64(chunkElems)*4, int64(len(c.Data))))
		start := len(c.Data)
		c.Data = append(c.Data, make([]byte, k)...)
		if err := r.readPayload(c.Data[start:]); err != nil {
			return err
		}
	}
	return nil
}

func (c *CompressedMatrix) write(w *Writer) error {
	w.WriteToken(true, c.token())
	h := w.sc[:16]
	put32(h[0:], math.Float32bits(c.MinValue))
	put32(h[4:], math.Float32bits(c.Range))
	put32(h[8:], uint32(int32(c.Rows)))
	put32(h[12:], uint32(int32(c.Cols)))
	if c.Cols == 0 || c.Rows == 0 { // Kaldi writes an empty matrix as "CM " and a zero header
		clear(h)
		_, err := w.Write(h)
		return err
	}
	w.Write(h)
	_, err := w.Write(c.Data)
	return err
}

func put32(b []byte, u uint32) {
	b[0], b[1], b[2], b[3] = byte(u), byte(u>>8), byte(u>>16), byte(u>>24)
}

// cvtInt converts as x86-64's cvttsd2si does for C++ static_cast<int>:
// truncation toward zero, and INT_MIN for NaN and out-of-range values. Kaldi's
// rounding code relies on the clamps after it, so the same garbage-in must
// give the same bytes.
func cvtInt(x float64) int32 {
	if !(x > -2147483649 && x < 2147483648) {
		return math.MinInt32
	}
	return int32(x)
}

// uint16ToFloat is Kaldi's Uint16ToFloat, in float32 arithmetic:
// min + range * 1.52590218966964e-05F * value.
func uint16ToFloat(minv, rng float32, v uint16) float32 {
	t := float32(rng * float32(1.52590218966964e-05))
	return minv + float32(t*float32(v))
}

// floatToUint16 is Kaldi's FloatToUint16: f = (value-min)/range clamped to
// [0, 1], then int(f*65535 + 0.499) with the product in float and the sum
// in double.
func floatToUint16(minv, rng, value float32) uint16 {
	f := float32(value-minv) / rng
	if f > 1 {
		f = 1
	}
	if f < 0 {
		f = 0
	}
	return uint16(cvtInt(float64(float32(f*65535)) + 0.499))
}

// floatToUint8 is Kaldi's FloatToUint8 (255 levels).
func floatToUint8(minv, rng, value float32) uint8 {
	f := float32(value-minv) / rng
	if f > 1 {
		f = 1
	}
	if f < 0 {
		f = 0
	}
	return uint8(cvtInt(float64(float32(f*255)) + 0.499))
}

// charToFloat is Kaldi's CharToFloat: piecewise linear over the column's
// percentiles; the products are float, the final scale by 1/64, 1/128,
// 1/63 (double literals) and the sum are double, rounded once to float.
func charToFloat(p0, p25, p75, p100 float32, v uint8) float32 {
	switch {
	case v <= 64:
		return float32(float64(p0) + float64(float32(float32(p25-p0)*float32(v)))*(1/64.0))
	case v <= 192:
		return float32(float64(p25) + float64(float32(float32(p75-p25)*float32(int(v)-64)))*(1/128.0))
	}
	return float32(float64(p75) + float64(float32(float32(p100-p75)*float32(int(v)-192)))*(1/63.0))
}

// floatToChar is Kaldi's FloatToChar.
func floatToChar(p0, p25, p75, p100, value float32) uint8 {
	var ans int32
	switch {
	case value < p25:
		f := float32(value-p0) / float32(p25-p0)
		ans = cvtInt(float64(float32(f*64)) + 0.5)
		ans = min(max(ans, 0), 64)
	case value < p75:
		f := float32(value-p25) / float32(p75-p25)
		ans = 64 + cvtInt(float64(float32(f*128))+0.5)
		ans = min(max(ans, 64), 192)
	default:
		f := float32(value-p75) / float32(p100-p75)
		ans = 192 + cvtInt(float64(float32(f*63))+0.5)
		ans = min(max(ans, 192), 255)
	}
	return uint8(ans)
}

// DecompressTo writes the matrix's values into m (resized, storage reused),
// exactly as Kaldi's CompressedMatrix::CopyToMat computes them.
func (c *CompressedMatrix) DecompressTo(m *Matrix) {
	m.Resize(c.Rows, c.Cols)
	rows, cols := c.Rows, c.Cols
	if rows == 0 || cols == 0 {
		return
	}
	switch c.Format {
	case FormatCM:
		hdr := c.Data[:8*cols]
		bytes := c.Data[8*cols:]
		for j := 0; j < cols; j++ {
			h := hdr[8*j:]
			p0 := uint16ToFloat(c.MinValue, c.Range, uint16(h[0])|uint16(h[1])<<8)
			p25 := uint16ToFloat(c.MinValue, c.Range, uint16(h[2])|uint16(h[3])<<8)
			p75 := uint16ToFloat(c.MinValue, c.Range, uint16(h[4])|uint16(h[5])<<8)
			p100 := uint16ToFloat(c.MinValue, c.Range, uint16(h[6])|uint16(h[7])<<8)
			col := bytes[j*rows : (j+1)*rows]
			if rows < 256 {
				// Short columns (typical utterances): computing each value
				// is cheaper than a table of all 256 codes.
				for i, b := range col {
					m.Data[i*cols+j] = charToFloat(p0, p25, p75, p100, b)
				}
				continue
			}
			var lut [256]float32
			for v := 0; v < 256; v++ {
				lut[v] = charToFloat(p0, p25, p75, p100, uint8(v))
			}
			for i, b := range col {
				m.Data[i*cols+j] = lut[b]
			}
		}
	case FormatCM2:
		inc := float32(float64(c.Range) * (1.0 / 65535.0))
		d := c.Data[:2*rows*cols]
		for i := range m.Data {
			u := uint16(d[2*i]) | uint16(d[2*i+1])<<8
			m.Data[i] = c.MinValue + float32(float32(u)*inc)
		}
	case FormatCM3:
		inc := float32(float64(c.Range) * (1.0 / 255.0))
		var lut [256]float32
		for v := 0; v < 256; v++ {
			lut[v] = c.MinValue + float32(float32(v)*inc)
		}
		for i, b := range c.Data[:rows*cols] {
			m.Data[i] = lut[b]
		}
	}
}

// ErrCompress is returned when a matrix cannot be compressed (NaN or Inf
// with a method that scales by the matrix's range; Kaldi aborts there).
var ErrCompress = errors.New("cannot compress matrix")

// Compress compresses m with method as Kaldi's CompressedMatrix constructor
// does, bit for bit. An empty matrix gives an empty CompressedMatrix.
func Compress(m *Matrix, method CompressionMethod) (CompressedMatrix, error) {
	var c CompressedMatrix
	err := c.CompressFrom(m, method)
	return c, err
}

// CompressFrom is Compress into c, reusing its storage.
func (c *CompressedMatrix) CompressFrom(m *Matrix, method CompressionMethod) error {
	rows, cols := m.Rows, m.Cols
	if rows == 0 || cols == 0 {
		c.Format, c.MinValue, c.Range, c.Rows, c.Cols, c.Data = FormatCM, 0, 0, 0, 0, c.Data[:0]
		return nil
	}
	if method == AutomaticMethod {
		if rows > 8 {
			method = SpeechFeature
		} else {
			method = TwoByteAuto
		}
	}
	switch method {
	case SpeechFeature:
		c.Format = FormatCM
	case TwoByteAuto, TwoByteSignedInteger:
		c.Format = FormatCM2
	case OneByteAuto, OneByteUnsignedInteger, OneByteZeroOne:
		c.Format = FormatCM3
	default:
		return fmt.Errorf("%w: invalid compression method %d (valid: 1..7)", ErrCompress, int(method))
	}
	switch method {
	case SpeechFeature, TwoByteAuto, OneByteAuto:
		data := m.Data[:rows*cols]
		minv, maxv := data[0], data[0]
		for _, x := range data {
			// Kaldi's Min/Max; NaN is caught below.
			if x < minv {
				minv = x
			}
			if x > maxv {
				maxv = x
			}
		}
		for _, x := range data {
			if x != x || math.IsInf(float64(x), 0) {
				return fmt.Errorf("%w: it holds NaN or Inf", ErrCompress)
			}
		}
		if maxv == minv {
			maxv = float32(float64(minv) + (1.0 + math.Abs(float64(minv))))
		}
		c.MinValue = minv
		c.Range = maxv - minv
		if !(c.Range > 0) || math.IsInf(float64(c.Range), 0) {
			return fmt.Errorf("%w: its range %g is not a positive finite float", ErrCompress, c.Range)
		}
	case TwoByteSignedInteger:
		c.MinValue, c.Range = -32768, 65535
	case OneByteUnsignedInteger:
		c.MinValue, c.Range = 0, 255
	case OneByteZeroOne:
		c.MinValue, c.Range = 0, 1
	}
	c.Rows, c.Cols = rows, cols
	n := int(payloadSize(c.Format, int64(rows), int64(cols)))
	if cap(c.Data) >= n {
		c.Data = c.Data[:n]
	} else {
		c.Data = make([]byte, n)
	}
	switch c.Format {
	case FormatCM2:
		for i, x := range m.Data[:rows*cols] {
			u := floatToUint16(c.MinValue, c.Range, x)
			c.Data[2*i], c.Data[2*i+1] = byte(u), byte(u>>8)
		}
	case FormatCM3:
		for i, x := range m.Data[:rows*cols] {
			c.Data[i] = floatToUint8(c.MinValue, c.Range, x)
		}
	case FormatCM:
		col := make([]float32, rows)
		sorted := make([]float32, rows)
		for j := 0; j < cols; j++ {
			for i := range col {
				col[i] = m.Data[i*cols+j]
			}
			copy(sorted, col)
			slices.Sort(sorted)
			p := c.colHeader(sorted)
			h := c.Data[8*j:]
			for k, v := range p {
				h[2*k], h[2*k+1] = byte(v), byte(v>>8)
			}
			f0 := uint16ToFloat(c.MinValue, c.Range, p[0])
			f25 := uint16ToFloat(c.MinValue, c.Range, p[1])
			f75 := uint16ToFloat(c.MinValue, c.Range, p[2])
			f100 := uint16ToFloat(c.MinValue, c.Range, p[3])
			out := c.Data[8*cols+j*rows:]
			for i, x := range col {
				out[i] = floatToChar(f0, f25, f75, f100, x)
			}
		}
	}
	return nil
}

// colHeader is Kaldi's ComputeColHeader given the column sorted ascending:
// Kaldi's nth_element calls select exactly the order statistics 0, n/4,
// 3*(n/4) and n-1 (for n >= 5; the first four for smaller n), each forced at
// least one code above the previous and kept below 65533..65535.
func (c *CompressedMatrix) colHeader(s []float32) [4]uint16 {
	n := len(s)
	f := func(x float32) int { return int(floatToUint16(c.MinValue, c.Range, x)) }
	var p0, p25, p75, p100 int
	if n >= 5 {
		q := n / 4
		p0 = min(f(s[0]), 65532)
		p25 = min(max(f(s[q]), p0+1), 65533)
		p75 = min(max(f(s[3*q]), p25+1), 65534)
		p100 = max(f(s[n-1]), p75+1)
	} else {
		p0 = min(f(s[0]), 65532)
		if n > 1 {
			p25 = min(max(f(s[1]), p0+1), 65533)
		} else {
			p25 = p0 + 1
		}
		if n > 2 {
			p75 = min(max(f(s[2]), p25+1), 65534)
		} else {
			p75 = p25 + 1
		}
		if n > 3 {
			p100 = max(f(s[3]), p75+1)
		} else {
			p100 = p75 + 1
		}
	}
	return [4]uint16{uint16(p0), uint16(p25), uint16(p75), uint16(p100)}
}

type compressedCodec struct{}

func (compressedCodec) Read(r *Reader, binary bool, c *CompressedMatrix) error {
	if binary {
		if b, err := r.PeekToken(true); err == nil && b == 'C' {
			return c.read(r)
		}
	}
	// Kaldi reads an ordinary matrix and compresses it with the default
	// method.
	var m Matrix
	if err := MatrixCodec.Read(r, binary, &m); err != nil {
		return err
	}
	if err := c.CompressFrom(&m, AutomaticMethod); err != nil {
		return r.errAt(err)
	}
	return nil
}

func (compressedCodec) Write(w *Writer, binary bool, c *CompressedMatrix) error {
	if binary {
		return c.write(w)
	}
	var m Matrix
	c.DecompressTo(&m)
	return MatrixCodec.Write(w, false, &m)
}
