package transform

import (
	"encoding/binary"
	"fmt"
	"math"

	"github.com/strode-asr/strode/kaldiio"
)

// SpMatrix is a symmetric matrix held as Kaldi's SpMatrix<double> holds it:
// the lower triangle packed row by row, element (i, j) with j ≤ i at
// i(i+1)/2 + j. The statistics of LDA, MLLT and fMLLR are written in this
// form ("FP"/"DP" objects), so keeping Kaldi's layout makes their codecs a
// copy.
type SpMatrix struct {
	N    int
	Data []float64
}

// NewSpMatrix is an n × n zero matrix.
func NewSpMatrix(n int) SpMatrix { return SpMatrix{N: n, Data: make([]float64, n*(n+1)/2)} }

// At is element (i, j), either triangle.
func (s *SpMatrix) At(i, j int) float64 {
	if j > i {
		i, j = j, i
	}
	return s.Data[i*(i+1)/2+j]
}

// Set sets elements (i, j) and (j, i).
func (s *SpMatrix) Set(i, j int, v float64) {
	if j > i {
		i, j = j, i
	}
	s.Data[i*(i+1)/2+j] = v
}

// AddVec2 is s += α·v·vᵀ (Kaldi's SpMatrix::AddVec2).
func (s *SpMatrix) AddVec2(alpha float64, v []float64) {
	k := 0
	for i := 0; i < s.N; i++ {
		av := alpha * v[i]
		for j := 0; j <= i; j++ {
			s.Data[k] += av * v[j]
			k++
		}
	}
}

// AddSp is s += α·o.
func (s *SpMatrix) AddSp(alpha float64, o *SpMatrix) {
	for i, v := range o.Data {
		s.Data[i] += alpha * v
	}
}

// Dense is the full n × n matrix, row-major.
func (s *SpMatrix) Dense() []float64 {
	d := make([]float64, s.N*s.N)
	for i := 0; i < s.N; i++ {
		for j := 0; j <= i; j++ {
			v := s.At(i, j)
			d[i*s.N+j], d[j*s.N+i] = v, v
		}
	}
	return d
}

// Trace is the sum of the diagonal.
func (s *SpMatrix) Trace() float64 {
	t := 0.0
	for i := 0; i < s.N; i++ {
		t += s.At(i, i)
	}
	return t
}

// writeSp writes s as Kaldi's PackedMatrix::Write: binary "FP" (float,
// when single is set, as Kaldi writes SpMatrix<BaseFloat>) or "DP", the
// int32 size and the raw triangle; text "[\n", one row of the triangle a
// line, "]" after the last.
func writeSp(w *kaldiio.Writer, binary, single bool, s *SpMatrix) error {
	if binary {
		tok := "DP"
		if single {
			tok = "FP"
		}
		if err := w.WriteToken(true, tok); err != nil {
			return err
		}
		if err := w.WriteInt32(true, int32(s.N)); err != nil {
			return err
		}
		var buf []byte
		if single {
			buf = make([]byte, 4*len(s.Data))
			for i, v := range s.Data {
				leBytes.PutUint32(buf[4*i:], math.Float32bits(float32(v)))
			}
		} else {
			buf = make([]byte, 8*len(s.Data))
			for i, v := range s.Data {
				leBytes.PutUint64(buf[8*i:], math.Float64bits(v))
			}
		}
		_, err := w.Write(buf)
		return err
	}
	if s.N == 0 {
		return w.WriteString("[ ]\n")
	}
	if err := w.WriteString("[\n"); err != nil {
		return err
	}
	k := 0
	for i := 0; i < s.N; i++ {
		for j := 0; j <= i; j++ {
			v := s.Data[k]
			if single {
				v = float64(float32(v))
			}
			if err := w.WriteFloat64(false, v); err != nil {
				return err
			}
			k++
		}
		end := "\n"
		if i == s.N-1 {
			end = "]\n"
		}
		if err := w.WriteString(end); err != nil {
			return err
		}
	}
	return nil
}

var leBytes = binary.LittleEndian

// maxSpDim bounds a packed matrix's size read from a file, so a corrupt
// size cannot allocate gigabytes (feature dimensions are hundreds at most).
const maxSpDim = 1 << 14

// readSp reads a packed symmetric matrix as Kaldi's PackedMatrix::Read:
// binary "FP" or "DP" (either precision), or text "[ ... ]" whose element
// count must be a triangle number.
func readSp(r *kaldiio.Reader, binary bool, s *SpMatrix) error {
	if binary {
		tok, err := r.ReadToken(true)
		if err != nil {
			return err
		}
		size := 0
		switch tok {
		case "FP":
			size = 4
		case "DP":
			size = 8
		default:
			return r.Errorf("expected a packed matrix (FP or DP), got token %q", tok)
		}
		n, err := r.ReadInt32(true)
		if err != nil {
			return err
		}
		if n < 0 || n > maxSpDim {
			return r.Errorf("packed matrix has bad size %d", n)
		}
		*s = NewSpMatrix(int(n))
		buf := make([]byte, size*len(s.Data))
		if err := r.ReadFull(buf); err != nil {
			return err
		}
		for i := range s.Data {
			if size == 4 {
				s.Data[i] = float64(math.Float32frombits(leBytes.Uint32(buf[4*i:])))
			} else {
				s.Data[i] = math.Float64frombits(leBytes.Uint64(buf[8*i:]))
			}
		}
		return nil
	}
	tok, err := r.ReadToken(false)
	if err != nil {
		return err
	}
	if tok == "[]" {
		*s = NewSpMatrix(0)
		return nil
	}
	if tok != "[" {
		return r.Errorf("expected \"[\" to start a packed matrix, got %q", tok)
	}
	var data []float64
	for {
		c, err := r.PeekToken(false)
		if err != nil {
			return err
		}
		if c == ']' {
			r.ReadByte()
			break
		}
		v, err := r.ReadFloat64(false)
		if err != nil {
			return err
		}
		data = append(data, v)
		if len(data) > maxSpDim*(maxSpDim+1)/2 {
			return r.Errorf("packed matrix too large")
		}
	}
	n := int((math.Sqrt(1+8*float64(len(data))) - 1) / 2)
	if n*(n+1)/2 != len(data) {
		return r.Errorf("packed matrix has %d elements, not a triangle number", len(data))
	}
	*s = SpMatrix{N: n, Data: data}
	return nil
}

// checkDim is the error for an object whose size does not match the one
// it is summed with.
func checkDim(what string, got, want int) error {
	if got != want {
		return fmt.Errorf("%s: dimension %d, expected %d", what, got, want)
	}
	return nil
}
