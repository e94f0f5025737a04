package gemm

import (
	"runtime"
	"sync/atomic"
)

// threadSetting is the number of goroutines a product may use; 0 means
// GOMAXPROCS at the time of the call.
var threadSetting atomic.Int64

// SetThreads sets how many goroutines one product may use and returns the
// previous setting. n <= 0 means runtime.GOMAXPROCS(0), the default. Results
// do not depend on it.
func SetThreads(n int) (prev int) {
	if n < 0 {
		n = 0
	}
	return int(threadSetting.Swap(int64(n)))
}

// Threads returns how many goroutines one product may use now.
func Threads() int {
	if n := int(threadSetting.Load()); n > 0 {
		return n
	}
	return runtime.GOMAXPROCS(0)
}

// Sgemm computes, for row-major matrices,
//
//	C = alpha·op(A)·op(B) + beta·C
//
// where op(X) is X, or Xᵀ when the matching trans flag is set; op(A) is m×k,
// op(B) is k×n and C is m×n. lda, ldb and ldc are the row strides of a, b and
// c as stored. When beta is 0, C is not read. It is the plain-slice form of
// Implementation.Sgemm, for code outside gonum and gorgonia.
//
// Inconsistent sizes are programming errors and panic, as in gonum's BLAS.
func Sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	checkSgemm(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

// checkSgemm panics with gonum's message when the sizes are inconsistent.
func checkSgemm(transA, transB bool, m, n, k int, a []float32, lda int, b []float32, ldb int, c []float32, ldc int) {
	switch {
	case m < 0:
		panic(mLT0)
	case n < 0:
		panic(nLT0)
	case k < 0:
		panic(kLT0)
	}
	rowsA, colsA := m, k
	if transA {
		rowsA, colsA = k, m
	}
	rowsB, colsB := k, n
	if transB {
		rowsB, colsB = n, k
	}
	if lda < max(1, colsA) {
		panic(badLdA)
	}
	if ldb < max(1, colsB) {
		panic(badLdB)
	}
	if ldc < max(1, n) {
		panic(badLdC)
	}
	if m == 0 || n == 0 {
		return
	}
	if rowsA > 0 && colsA > 0 && len(a) < (rowsA-1)*lda+colsA {
		panic(shortA)
	}
	if rowsB > 0 && colsB > 0 && len(b) < (rowsB-1)*ldb+colsB {
		panic(shortB)
	}
	if len(c) < (m-1)*ldc+n {
		panic(shortC)
	}
}

// Panic messages, as gonum's BLAS words them.
const (
	mLT0         = "blas: m < 0"
	nLT0         = "blas: n < 0"
	kLT0         = "blas: k < 0"
	badLdA       = "blas: bad leading dimension of A"
	badLdB       = "blas: bad leading dimension of B"
	badLdC       = "blas: bad leading dimension of C"
	shortA       = "blas: insufficient length of a"
	shortB       = "blas: insufficient length of b"
	shortC       = "blas: insufficient length of c"
	badTranspose = "blas: illegal transpose"
)
