package gemm

import (
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas32"
	"gonum.org/v1/gonum/blas/gonum"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Implementation is gonum's BLAS with Sgemm replaced by this package's. It
// satisfies blas.Float32 (for blas32.Use) and the four-precision BLAS that
// gorgonia and tensor take.
type Implementation struct {
	gonum.Implementation
}

var (
	_ blas.Float32   = Implementation{}
	_ tensor.BLAS    = Implementation{}
	_ gorgonia.BLAS  = Implementation{}
	_ blas.Float64   = Implementation{}
	_ blas.Complex64 = Implementation{}
)

// sgemmCalls counts calls of Implementation.Sgemm, so tests can prove that a
// graph's products reach it.
var sgemmCalls atomic.Int64

// Sgemm computes C = alpha·op(A)·op(B) + beta·C (row-major), as gonum's Sgemm
// does and with its argument checks; see the package Sgemm. ConjTrans is
// Trans for real matrices.
func (Implementation) Sgemm(tA, tB blas.Transpose, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	sgemmCalls.Add(1)
	transA, transB := isTrans(tA), isTrans(tB)
	checkSgemm(transA, transB, m, n, k, a, lda, b, ldb, c, ldc)
	sgemm(transA, transB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
}

func isTrans(t blas.Transpose) bool {
	switch t {
	case blas.NoTrans:
		return false
	case blas.Trans, blas.ConjTrans:
		return true
	}
	panic(badTranspose)
}

// Install makes Implementation the BLAS of gonum's blas32 package, of
// gorgonia and of gorgonia's tensor package, so that every float32 matrix
// product there runs through this package. Call it once at start-up, before
// building graphs; it is not safe to call while products are running.
func Install() {
	impl := Implementation{}
	blas32.Use(impl)
	gorgonia.Use(impl) // also calls tensor.Use, since gorgonia v0.9.x
	tensor.Use(impl)
}
