package conv

import (
	"sync"

	"github.com/strode-asr/strode/internal/gemm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// float is the precision the products run in.
type float interface{ float32 | float64 }

// toChannelMajor rounds the n images src (each c planes of p values) into
// dst as the c × n·p matrix whose row ci holds every image's plane ci.
func toChannelMajor[T float](dst []T, src []float64, n, c, p int) {
	parallel(n, c*p, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for ci := 0; ci < c; ci++ {
				d := dst[ci*n*p+i*p : ci*n*p+(i+1)*p]
				for j, v := range src[(i*c+ci)*p : (i*c+ci+1)*p] {
					d[j] = T(v)
				}
			}
		}
	})
}

// fromChannelMajor is the inverse of toChannelMajor, widening, plus bias[ci]
// on plane ci when bias is not nil.
func fromChannelMajor[T float](dst []float64, src []T, n, c, p int, bias []float64) {
	parallel(n, c*p, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			for ci := 0; ci < c; ci++ {
				b := 0.0
				if bias != nil {
					b = bias[ci]
				}
				d := dst[(i*c+ci)*p : (i*c+ci+1)*p]
				for j, v := range src[ci*n*p+i*p : ci*n*p+(i+1)*p] {
					d[j] = float64(v) + b
				}
			}
		}
	})
}

// channelSums adds to sum[ci] every value of plane ci of the n images x.
func channelSums(sum, x []float64, n, c, p int) {
	for i := 0; i < n; i++ {
		for ci := 0; ci < c; ci++ {
			s := 0.0
			for _, v := range x[(i*c+ci)*p : (i*c+ci+1)*p] {
				s += v
			}
			sum[ci] += s
		}
	}
}

// parallelMin is the least work (values touched) per goroutine worth
// starting one for.
const parallelMin = 1 << 15

// parallel runs f over [0, n) split into contiguous blocks, one per thread
// (gemm.Threads, so SetThreads governs the whole layer), when n items of
// perItem values each are enough work to share.
func parallel(n, perItem int, f func(lo, hi int)) {
	threads := min(gemm.Threads(), n, max(1, n*perItem/parallelMin))
	if threads <= 1 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for t := 0; t < threads; t++ {
		lo, hi := t*n/threads, (t+1)*n/threads
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(lo, hi)
		}()
	}
	wg.Wait()
}

// mm is C = op(A)·op(B) + beta·C, row-major: float32 through internal/gemm,
// float64 through gonum.
func mm[T float](transA, transB bool, m, n, k int, a []T, lda int, b []T, ldb int, beta T, c []T, ldc int) {
	switch a := any(a).(type) {
	case []float32:
		gemm.Sgemm(transA, transB, m, n, k, 1, a, lda, any(b).([]float32), ldb, float32(beta), any(c).([]float32), ldc)
	case []float64:
		gonum.Implementation{}.Dgemm(trans(transA), trans(transB), m, n, k, 1, a, lda, any(b).([]float64), ldb, float64(beta), any(c).([]float64), ldc)
	}
}

func trans(t bool) blas.Transpose {
	if t {
		return blas.Trans
	}
	return blas.NoTrans
}

// narrow rounds src into dst.
func narrow[T float](dst []T, src []float64) {
	for i, v := range src {
		dst[i] = T(v)
	}
}

// widen writes src into dst.
func widen[T float](dst []float64, src []T) {
	for i, v := range src {
		dst[i] = float64(v)
	}
}

// transposedGradMin is the least inner dimension (N·positions) for which
// the weight gradient is computed transposed (see conv2d.Backward).
const transposedGradMin = 512

// widenTransposed writes the transpose of the m×n matrix src into dst, in
// 32×32 blocks: row by row, a wide transpose (a 4096-column weight) writes
// every element to another page.
func widenTransposed[T float](dst []float64, src []T, m, n int) {
	const b = 32
	for i0 := 0; i0 < m; i0 += b {
		for j0 := 0; j0 < n; j0 += b {
			for i := i0; i < min(i0+b, m); i++ {
				row := src[i*n : (i+1)*n]
				for j := j0; j < min(j0+b, n); j++ {
					dst[j*m+i] = float64(row[j])
				}
			}
		}
	}
}

// grow returns buf resized to n, reallocated when too small.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}
