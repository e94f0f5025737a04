// Package gemm is the float32 matrix multiply that every heavy product in
// strode goes through: packed panels, cache blocking and register-blocked SIMD
// micro-kernels on amd64 (AVX2+FMA, AVX-512 where the CPU has it), split over
// the available cores without ever splitting the inner dimension, so results
// are bitwise the same for any thread count. Other architectures fall back to
// gonum. Its Implementation satisfies gonum's blas.Float32, so it can be
// installed under gonum and gorgonia.
//
// It must not know about anything else in strode.
package gemm
