// Package f32 holds the few operations on float32 slices that the fused
// kernels of the acoustic models share: the graph (gorgonia) holds float64
// values and the kernels compute in float32 through internal/gemm, so every
// kernel narrows its operands, widens its results, keeps buffers from one
// minibatch to the next and broadcasts bias rows.
package f32

// Narrow rounds src into dst (dst at least as long).
func Narrow(dst []float32, src []float64) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float32(v)
	}
}

// Widen copies src into dst (dst at least as long).
func Widen(dst []float64, src []float32) {
	dst = dst[:len(src)]
	for i, v := range src {
		dst[i] = float64(v)
	}
}

// Grow returns s with length n, reallocating only when it is too short (the
// contents are then zero; otherwise they are what s held).
func Grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// FillRows sets every row (len(row) wide) of m to row: the first row, then
// copies of what is filled, doubling, so that a few long copies do what a
// short copy per row did (thousands of rows of a few dozen values each).
func FillRows(m, row []float32) {
	if len(m) == 0 {
		return
	}
	n := copy(m, row)
	for n < len(m) {
		n += copy(m[n:], m[:n])
	}
}
