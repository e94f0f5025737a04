package conv

import (
	"sync"

	"github.com/strode-asr/strode/internal/gemm"
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// float is the precision the products run in.
type float interface{ float32 | float64 }

// geom: see Options.geom.
type geom struct {
	c, h, w int // image channels and size
	k, s, p int // kernel, stride, padding
	oh, ow  int // output positions
}

// rows is the height of the column matrix, c·k·k.
func (g geom) rows() int { return g.c * g.k * g.k }

// positions is the number of output positions per image.
func (g geom) positions() int { return g.oh * g.ow }

// tiles reports whether the patches tile the image: stride = kernel, no
// padding, and the positions cover it, so that every pixel is in exactly one
// patch (the decoder's ×4 layers).
func (g geom) tiles() bool {
	return g.s == g.k && g.p == 0 && g.h == g.oh*g.k && g.w == g.ow*g.k
}

// table is, for row r = (ci·k + kh)·k + kw of the column matrix and output
// position q = oy·ow + ox, the offset in an image of the pixel that im2col
// reads there, ci·h·w + (oy·s − p + kh)·w + ox·s − p + kw, or pad in the
// padding: rows × positions entries, computed once per layer so that the
// copies are plain gathers and scatters whatever the geometry. col2im's
// table has pad −1 (skipped); im2col's has c·h·w, a zero after each image
// in its rounded copy, so that its gathers need no branch.
func (g geom) table(pad int32) []int32 {
	pos := g.positions()
	t := make([]int32, g.rows()*pos)
	for ci := 0; ci < g.c; ci++ {
		for kh := 0; kh < g.k; kh++ {
			for kw := 0; kw < g.k; kw++ {
				r := (ci*g.k+kh)*g.k + kw
				for oy := 0; oy < g.oh; oy++ {
					for ox := 0; ox < g.ow; ox++ {
						iy, ix := oy*g.s-g.p+kh, ox*g.s-g.p+kw
						v := pad
						if iy >= 0 && iy < g.h && ix >= 0 && ix < g.w {
							v = int32((ci*g.h+iy)*g.w + ix)
						}
						t[r*pos+oy*g.ow+ox] = v
					}
				}
			}
		}
	}
	return t
}

// im2col writes the column matrix of the images x (n images, each c·h·w,
// channel-major) into col: row (ci·k + kh)·k + kw, column i·P + oy·ow + ox
// (P positions per image) holds x[i, ci, oy·s − p + kh, ox·s − p + kw], or 0
// in the padding. col is rows × n·P; tab is g.table(c·h·w); xr (n·(c·h·w +
// 1)) receives the images rounded, each followed by a zero. Each thread
// takes a block of images; see visit for the order.
func im2col[T float](g geom, tab []int32, n int, x []float64, xr, col []T) {
	ld, img, pos := n*g.positions(), g.c*g.h*g.w, g.positions()
	parallel(n, g.rows()*pos, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			narrow(xr[i*(img+1):(i+1)*(img+1)-1], x[i*img:(i+1)*img])
			xr[(i+1)*(img+1)-1] = 0
		}
		visit(g.rows(), pos, lo, hi, func(r, i int) {
			gather(col[r*ld+i*pos:r*ld+(i+1)*pos], tab[r*pos:(r+1)*pos], xr[i*(img+1):(i+1)*(img+1)])
		})
	})
}

// col2im adds the column matrix col (as im2col lays it out) into the images
// x: every entry goes back to the pixel it was read from, padding dropped.
// Within one row every entry has its own pixel, and each pixel's sum runs
// over the rows in order, whatever the threads and the order of visit.
//
// With set, the entries are written rather than added, which is only right
// when the patches tile the image (g.tiles): then every pixel gets exactly
// one entry and x need not be cleared first.
func col2im[T float](g geom, tab []int32, n int, col []T, x []float64, set bool) {
	ld, img, pos := n*g.positions(), g.c*g.h*g.w, g.positions()
	parallel(n, g.rows()*pos, func(lo, hi int) {
		visit(g.rows(), pos, lo, hi, func(r, i int) {
			scatter(x[i*img:(i+1)*img], tab[r*pos:(r+1)*pos], col[r*ld+i*pos:r*ld+(i+1)*pos], set)
		})
	})
}

// visit calls f for every row r of the column matrix and image i in
// [lo, hi). With many positions per image it goes row by row, each row over
// the images, so that the column matrix is walked along its rows and the
// pixels of neighbouring kernel offsets are still in cache; with few (the
// 1×1 and 4×4 layers, where a row holds one or a few values per image) it
// goes image by image instead, or every access to the images would land
// on another page.
func visit(rows, pos, lo, hi int, f func(r, i int)) {
	if pos < 16 {
		for i := lo; i < hi; i++ {
			for r := 0; r < rows; r++ {
				f(r, i)
			}
		}
		return
	}
	for r := 0; r < rows; r++ {
		for i := lo; i < hi; i++ {
			f(r, i)
		}
	}
}

// gather is d[q] = xi[t[q]].
func gather[T float](d []T, t []int32, xi []T) {
	d = d[:len(t)]
	for q, j := range t {
		d[q] = xi[j]
	}
}

// scatter is xi[t[q]] += s[q] (= with set) where t[q] ≥ 0.
func scatter[T float](xi []float64, t []int32, s []T, set bool) {
	s = s[:len(t)]
	if set {
		for q, j := range t {
			xi[j] = float64(s[q])
		}
		return
	}
	for q, j := range t {
		if j >= 0 {
			xi[j] += float64(s[q])
		}
	}
}

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
