package ode

// dgemm computes C += A·B for row-major A (m×k, leading dimension lda),
// B (k×n, ldb) and C (m×n, ldc): 6×8, 4×8 and 4×4 blocks in the AVX2/FMA micro-kernels
// where available, the edges (and every block elsewhere) in Go.
func dgemm(m, n, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	if !haveFMA {
		gemmGo(0, m, 0, n, k, a, lda, b, ldb, c, ldc)
		return
	}
	// 8-column blocks: six rows at a time, then four; 4-column edge: four
	// rows at a time; Go for what is left.
	m6, n8, n4 := m/6*6, n&^7, n&^3
	m4 := m6 + (m-m6)&^3
	for i := 0; i < m6; i += 6 {
		for j := 0; j < n8; j += 8 {
			dgemm6x8(k, &a[i*lda], lda, &b[j], ldb, &c[i*ldc+j], ldc)
		}
	}
	for i := m6; i < m4; i += 4 {
		for j := 0; j < n8; j += 8 {
			dgemm4x8(k, &a[i*lda], lda, &b[j], ldb, &c[i*ldc+j], ldc)
		}
	}
	mA := m &^ 3
	if n4 > n8 {
		for i := 0; i < mA; i += 4 {
			dgemm4x4(k, &a[i*lda], lda, &b[n8], ldb, &c[i*ldc+n8], ldc)
		}
	}
	gemmGo(m4, m, 0, n8, k, a, lda, b, ldb, c, ldc)
	gemmGo(mA, m, n8, n4, k, a, lda, b, ldb, c, ldc)
	gemmGo(0, m, n4, n, k, a, lda, b, ldb, c, ldc)
}

// gemmGo is C[i0:i1, j0:j1] += A[i0:i1, :]·B[:, j0:j1] in plain Go.
func gemmGo(i0, i1, j0, j1, k int, a []float64, lda int, b []float64, ldb int, c []float64, ldc int) {
	if j0 >= j1 {
		return
	}
	for i := i0; i < i1; i++ {
		ci := c[i*ldc+j0 : i*ldc+j1]
		for p := 0; p < k; p++ {
			aip := a[i*lda+p]
			if aip == 0 {
				continue
			}
			bp := b[p*ldb+j0 : p*ldb+j1]
			for j, bv := range bp {
				ci[j] += aip * bv
			}
		}
	}
}

// transpose writes the n×m transpose of the row-major m×n matrix a into t.
func transpose(m, n int, a, t []float64) {
	for i := 0; i < m; i++ {
		row := a[i*n : (i+1)*n]
		for j, v := range row {
			t[j*m+i] = v
		}
	}
}
