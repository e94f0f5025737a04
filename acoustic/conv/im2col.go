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

// span is the range [lo, hi) of output positions o along one axis whose
// input coordinate o·s − p + off falls inside [0, size).
func (g geom) span(off, size, outs int) (lo, hi int) {
	// o·s ≥ p − off and o·s ≤ size − 1 + p − off
	lo = 0
	if d := g.p - off; d > 0 {
		lo = (d + g.s - 1) / g.s
	}
	hi = 0
	if d := size - 1 + g.p - off; d >= 0 {
		hi = d/g.s + 1
	}
	lo = min(lo, outs)
	return lo, min(max(hi, lo), outs)
}

// im2col writes the column matrix of the images x (n images, each c·h·w,
// channel-major) into col: row (ci·k + kh)·k + kw, column i·P + oy·ow + ox
// (P positions per image) holds x[i, ci, oy·s − p + kh, ox·s − p + kw], or 0
// in the padding. col is rows × n·P.
func im2col[T float](g geom, n int, x []float64, col []T) {
	ld, img, pos := n*g.positions(), g.c*g.h*g.w, g.positions()
	parallel(n, g.rows()*pos, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xi := x[i*img : (i+1)*img]
			for ci := 0; ci < g.c; ci++ {
				plane := xi[ci*g.h*g.w : (ci+1)*g.h*g.w]
				for kh := 0; kh < g.k; kh++ {
					ylo, yhi := g.span(kh, g.h, g.oh)
					for kw := 0; kw < g.k; kw++ {
						r := (ci*g.k+kh)*g.k + kw
						dst := col[r*ld+i*pos : r*ld+(i+1)*pos]
						xlo, xhi := g.span(kw, g.w, g.ow)
						for oy := 0; oy < g.oh; oy++ {
							row := dst[oy*g.ow : (oy+1)*g.ow]
							if oy < ylo || oy >= yhi {
								clear(row)
								continue
							}
							src := plane[(oy*g.s-g.p+kh)*g.w:]
							clear(row[:xlo])
							clear(row[xhi:])
							ix := xlo*g.s - g.p + kw
							if g.s == 1 {
								for ox, v := range src[ix : ix+xhi-xlo] {
									row[xlo+ox] = T(v)
								}
								continue
							}
							for ox := xlo; ox < xhi; ox++ {
								row[ox] = T(src[ix])
								ix += g.s
							}
						}
					}
				}
			}
		}
	})
}

// col2im adds the column matrix col (as im2col lays it out) into the images
// x: every entry goes back to the pixel it was read from, padding dropped.
func col2im[T float](g geom, n int, col []T, x []float64) {
	ld, img, pos := n*g.positions(), g.c*g.h*g.w, g.positions()
	parallel(n, g.rows()*pos, func(lo, hi int) {
		for i := lo; i < hi; i++ {
			xi := x[i*img : (i+1)*img]
			for ci := 0; ci < g.c; ci++ {
				plane := xi[ci*g.h*g.w : (ci+1)*g.h*g.w]
				for kh := 0; kh < g.k; kh++ {
					ylo, yhi := g.span(kh, g.h, g.oh)
					for kw := 0; kw < g.k; kw++ {
						r := (ci*g.k+kh)*g.k + kw
						src := col[r*ld+i*pos : r*ld+(i+1)*pos]
						xlo, xhi := g.span(kw, g.w, g.ow)
						for oy := ylo; oy < yhi; oy++ {
							row := src[oy*g.ow : (oy+1)*g.ow]
							dst := plane[(oy*g.s-g.p+kh)*g.w:]
							ix := xlo*g.s - g.p + kw
							for _, v := range row[xlo:xhi] {
								dst[ix] += float64(v)
								ix += g.s
							}
						}
					}
				}
			}
		}
	})
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

// grow returns buf resized to n, reallocated when too small.
func grow[T any](buf []T, n int) []T {
	if cap(buf) < n {
		return make([]T, n)
	}
	return buf[:n]
}
