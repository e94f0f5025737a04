//go:build amd64 && !purego

package gemm

//go:noescape
func copyRows16(dst, src *float32, ld, rows int)

//go:noescape
func copyRows32(dst, src *float32, ld, rows int)

// copyRows copies rows runs of w floats (w is 16 or 32), read ld floats
// apart from src, to dst back to back. The packers only run when a SIMD
// kernel is active, so AVX is there.
func copyRows(dst, src []float32, ld, rows, w int) {
	if rows <= 0 {
		return
	}
	_ = dst[rows*w-1]
	_ = src[(rows-1)*ld+w-1]
	if w == 16 {
		copyRows16(&dst[0], &src[0], ld, rows)
	} else {
		copyRows32(&dst[0], &src[0], ld, rows)
	}
}
