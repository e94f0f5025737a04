package gemm_test

import (
	"fmt"

	"github.com/strode-asr/strode/internal/gemm"
)

func ExampleSgemm() {
	// C (2×2) = A (2×3) · B (3×2), row-major, no padding.
	a := []float32{1, 2, 3, 4, 5, 6}
	b := []float32{1, 0, 0, 1, 1, 1}
	c := make([]float32, 4)
	gemm.Sgemm(false, false, 2, 2, 3, 1, a, 3, b, 2, 0, c, 2)
	fmt.Println(c)
	// Output: [4 5 10 11]
}

func ExampleInstall() {
	// At start-up, before building gorgonia graphs: every float32 product in
	// gonum's blas32, gorgonia and tensor then runs through gemm, on
	// gemm.Threads() goroutines.
	gemm.Install()
	defer gemm.SetThreads(gemm.SetThreads(2))
}
