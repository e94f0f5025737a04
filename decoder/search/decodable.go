package search

import (
	"errors"
	"fmt"
	"math"
)

// Decodable gives the decoder its acoustic scores.
type Decodable interface {
	// NumFrames is the number of frames.
	NumFrames() int
	// LogLikes fills dst[tid], for every transition-id 1 ≤ tid < len(dst),
	// with the scaled log-likelihood of tid at frame.
	LogLikes(frame int, dst []float32)
}

// ErrLogLikes marks a log-likelihood matrix the decoder cannot use.
var ErrLogLikes = errors.New("bad log-likelihoods")

// MatrixMapped is Kaldi's DecodableMatrixScaledMapped: a frames × pdfs matrix
// of log-likelihoods (row-major) read through the transition model's
// transition-id → pdf map and multiplied by the acoustic scale in float32.
type MatrixMapped struct {
	Data       []float32
	Rows, Cols int
	TidToPdf   []int32 // index 0 unused
	Scale      float32
}

// NewMatrixMapped checks the matrix against the transition model (its column
// count must be the number of pdfs) and that it holds no NaN or +Inf, which
// Kaldi would turn into a crash or garbage; -Inf (a banned pdf) is allowed.
func NewMatrixMapped(data []float32, rows, cols int, tidToPdf []int32, numPdfs int, scale float32) (*MatrixMapped, error) {
	if cols != numPdfs {
		return nil, fmt.Errorf("%w: the matrix has %d columns but the transition model has %d pdf-ids", ErrLogLikes, cols, numPdfs)
	}
	if len(data) != rows*cols {
		return nil, fmt.Errorf("%w: %d values for a %d×%d matrix", ErrLogLikes, len(data), rows, cols)
	}
	for i, x := range data {
		if x != x || math.IsInf(float64(x), 1) {
			return nil, fmt.Errorf("%w: %v at frame %d, pdf %d", ErrLogLikes, x, i/cols, i%cols)
		}
	}
	for tid, pdf := range tidToPdf[1:] {
		if pdf < 0 || int(pdf) >= numPdfs {
			return nil, fmt.Errorf("%w: transition-id %d maps to pdf %d of %d", ErrLogLikes, tid+1, pdf, numPdfs)
		}
	}
	return &MatrixMapped{Data: data, Rows: rows, Cols: cols, TidToPdf: tidToPdf, Scale: scale}, nil
}

// NumFrames is the number of rows.
func (m *MatrixMapped) NumFrames() int { return m.Rows }

// LogLikes fills dst[tid] = Scale × loglike[frame][pdf(tid)].
func (m *MatrixMapped) LogLikes(frame int, dst []float32) {
	row := m.Data[frame*m.Cols : (frame+1)*m.Cols]
	n := min(len(dst), len(m.TidToPdf))
	for tid := 1; tid < n; tid++ {
		dst[tid] = m.Scale * row[m.TidToPdf[tid]]
	}
}
