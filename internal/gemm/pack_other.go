//go:build !amd64 || purego

package gemm

// copyRows copies rows runs of w floats, read ld floats apart from src, to dst
// back to back. (Off amd64 no kernel packs panels; this keeps the build whole.)
func copyRows(dst, src []float32, ld, rows, w int) {
	for p := 0; p < rows; p++ {
		copy(dst[p*w:(p+1)*w], src[p*ld:p*ld+w])
	}
}
