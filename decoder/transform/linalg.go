package transform

import (
	"errors"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/strode-asr/strode/kaldiio"
)

// errSingular is returned where Kaldi's matrix inversion would throw.
var errSingular = errors.New("matrix is singular")

// invertDense inverts an n × n matrix (row-major), as Kaldi's
// MatrixBase::Invert (an LU factorisation).
func invertDense(n int, a []float64) ([]float64, error) {
	var inv mat.Dense
	if err := inv.Inverse(mat.NewDense(n, n, append([]float64(nil), a...))); err != nil {
		var c mat.Condition
		if errors.As(err, &c) && !math.IsInf(float64(c), 1) {
			// gonum reports ill-conditioning as an error but still
			// returns the inverse; Kaldi only fails on exact
			// singularity.
			return denseData(&inv), nil
		}
		return nil, errSingular
	}
	return denseData(&inv), nil
}

// invertSp inverts a symmetric matrix (Kaldi's SpMatrix::Invert).
func invertSp(s *SpMatrix) (SpMatrix, error) {
	inv, err := invertDense(s.N, s.Dense())
	if err != nil {
		return SpMatrix{}, err
	}
	out := NewSpMatrix(s.N)
	for i := 0; i < s.N; i++ {
		for j := 0; j <= i; j++ {
			// Average the two triangles: the LU inverse of a symmetric
			// matrix is symmetric only up to rounding.
			out.Set(i, j, 0.5*(inv[i*s.N+j]+inv[j*s.N+i]))
		}
	}
	return out, nil
}

// logDetDense is log|det A| of an n × n matrix (Kaldi's MatrixBase::LogDet,
// which drops the sign), from an LU factorisation.
func logDetDense(n int, a []float64) float64 {
	if n == 0 {
		return 0
	}
	var lu mat.LU
	lu.Factorize(mat.NewDense(n, n, append([]float64(nil), a...)))
	ld, _ := lu.LogDet()
	return ld
}

func denseData(d *mat.Dense) []float64 {
	r, c := d.Dims()
	out := make([]float64, r*c)
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			out[i*c+j] = d.At(i, j)
		}
	}
	return out
}

// spMatVec is y = S·x.
func spMatVec(s *SpMatrix, x []float64) []float64 {
	y := make([]float64, s.N)
	for i := 0; i < s.N; i++ {
		row := s.Data[i*(i+1)/2:]
		for j := 0; j <= i; j++ {
			v := row[j]
			y[i] += v * x[j]
			if j != i {
				y[j] += v * x[i]
			}
		}
	}
	return y
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}

// toDouble widens a float matrix.
func toDouble(m *kaldiio.Matrix) []float64 {
	out := make([]float64, len(m.Data))
	for i, v := range m.Data {
		out[i] = float64(v)
	}
	return out
}

// fromDouble narrows a rows × cols row-major matrix to a Kaldi float matrix.
func fromDouble(rows, cols int, d []float64) kaldiio.Matrix {
	m := kaldiio.NewMatrix(rows, cols)
	for i, v := range d {
		m.Data[i] = float32(v)
	}
	return m
}
