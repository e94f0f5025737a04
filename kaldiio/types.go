package kaldiio

// Matrix is a Kaldi float matrix (Matrix<BaseFloat>, token FM): Rows×Cols
// values stored row-major in Data, len(Data) == Rows*Cols.
type Matrix struct {
	Rows, Cols int
	Data       []float32
}

// NewMatrix returns a zero rows×cols matrix.
func NewMatrix(rows, cols int) Matrix {
	return Matrix{Rows: rows, Cols: cols, Data: make([]float32, rows*cols)}
}

// Row returns row i as a slice of Data (not a copy).
func (m *Matrix) Row(i int) []float32 { return m.Data[i*m.Cols : (i+1)*m.Cols] }

// At returns element (i, j).
func (m *Matrix) At(i, j int) float32 { return m.Data[i*m.Cols+j] }

// Resize sets the shape, reusing Data's storage when it is large enough.
// The contents are unspecified afterwards.
func (m *Matrix) Resize(rows, cols int) {
	m.Rows, m.Cols = rows, cols
	m.Data = growFloat32(m.Data, rows*cols)
}

// DoubleMatrix is a Kaldi double matrix (Matrix<double>, token DM), e.g.
// CMVN statistics.
type DoubleMatrix struct {
	Rows, Cols int
	Data       []float64
}

// NewDoubleMatrix returns a zero rows×cols double matrix.
func NewDoubleMatrix(rows, cols int) DoubleMatrix {
	return DoubleMatrix{Rows: rows, Cols: cols, Data: make([]float64, rows*cols)}
}

// Row returns row i as a slice of Data (not a copy).
func (m *DoubleMatrix) Row(i int) []float64 { return m.Data[i*m.Cols : (i+1)*m.Cols] }

// At returns element (i, j).
func (m *DoubleMatrix) At(i, j int) float64 { return m.Data[i*m.Cols+j] }

// Resize sets the shape, reusing storage when it is large enough.
func (m *DoubleMatrix) Resize(rows, cols int) {
	m.Rows, m.Cols = rows, cols
	m.Data = growFloat64(m.Data, rows*cols)
}

// Vector is a Kaldi float vector (Vector<BaseFloat>, token FV).
type Vector []float32

// DoubleVector is a Kaldi double vector (Vector<double>, token DV).
type DoubleVector []float64

// IntVector is a vector of int32 as Kaldi's alignment tables hold them
// (BasicVectorHolder<int32>, e.g. ali.ark after ali-to-pdf).
type IntVector []int32

// PostEntry is one (id, weight) pair of a Posterior frame.
type PostEntry struct {
	ID     int32
	Weight float32
}

// Posterior is Kaldi's Posterior: for each frame, a list of (id, weight)
// pairs (vector<vector<pair<int32, BaseFloat>>>).
type Posterior [][]PostEntry

func growFloat32(s []float32, n int) []float32 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float32, n)
}

func growFloat64(s []float64, n int) []float64 {
	if cap(s) >= n {
		return s[:n]
	}
	return make([]float64, n)
}
