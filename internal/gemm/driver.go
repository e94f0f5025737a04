package gemm

import (
	"sync"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// minParallelFlops is the size below which a product runs on one goroutine:
// starting and joining goroutines costs a few microseconds, about what a core
// does with 2·64³ flops.
const minParallelFlops = 2 * 64 * 64 * 64

// sgemm computes C = alpha·op(A)·op(B) + beta·C for row-major operands whose
// sizes have already been checked.
//
// Determinism: every element of C is owned by exactly one goroutine, the
// inner dimension is cut into blocks of kc at fixed offsets, and each block is
// summed in order by the micro-kernel and then added to C. The split over
// goroutines only decides who computes a tile, never how, so the result is
// bitwise the same for any thread count.
func sgemm(transA, transB bool, m, n, k int, alpha float32, a []float32, lda int, b []float32, ldb int, beta float32, c []float32, ldc int) {
	if m == 0 || n == 0 || ((alpha == 0 || k == 0) && beta == 1) {
		return
	}
	kern := active.Load()
	if kern == nil {
		tA, tB := blas.NoTrans, blas.NoTrans
		if transA {
			tA = blas.Trans
		}
		if transB {
			tB = blas.Trans
		}
		gonum.Implementation{}.Sgemm(tA, tB, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
		return
	}
	p := &problem{
		kern: kern, transA: transA, transB: transB, k: k, alpha: alpha,
		a: a, lda: lda, b: b, ldb: ldb, beta: beta, c: c, ldc: ldc,
	}
	threads := Threads()
	if 2*float64(m)*float64(n)*float64(k) < minParallelFlops {
		threads = 1
	}
	// Split the rows of C into whole register tiles, then the columns if
	// there are too few rows to go round.
	tilesM := ceilDiv(m, kern.mr)
	tilesN := ceilDiv(n, kern.nr)
	tm := min(threads, tilesM)
	tn := min(threads/tm, tilesN)
	if tm*tn <= 1 {
		p.run(0, m, 0, n)
		return
	}
	rowsPer := ceilDiv(tilesM, tm) * kern.mr
	colsPer := ceilDiv(tilesN, tn) * kern.nr
	var wg sync.WaitGroup
	for i0 := 0; i0 < m; i0 += rowsPer {
		for j0 := 0; j0 < n; j0 += colsPer {
			i1, j1 := min(m, i0+rowsPer), min(n, j0+colsPer)
			if i1 == m && j1 == n {
				p.run(i0, i1, j0, j1) // the last share runs on the caller
				continue
			}
			wg.Add(1)
			go func() {
				defer wg.Done()
				p.run(i0, i1, j0, j1)
			}()
		}
	}
	wg.Wait()
}

// problem is one product, shared read-only by the goroutines computing it.
type problem struct {
	kern           *microKernel
	transA, transB bool
	k              int
	alpha, beta    float32
	a, b, c        []float32
	lda, ldb, ldc  int
}

// buffers are one goroutine's packed panels and edge tile.
type buffers struct {
	a, b, tile []float32
}

var bufferPool = sync.Pool{New: func() any { return new(buffers) }}

func grow(s []float32, n int) []float32 {
	if cap(s) < n {
		return make([]float32, n)
	}
	return s[:n]
}

// run computes rows [i0, i1) and columns [j0, j1) of C.
func (p *problem) run(i0, i1, j0, j1 int) {
	kern := p.kern
	mr, nr := kern.mr, kern.nr
	c, ldc := p.c, p.ldc

	scale(c, ldc, i0, i1, j0, j1, p.beta)
	if p.alpha == 0 || p.k == 0 {
		return
	}

	buf := bufferPool.Get().(*buffers)
	defer bufferPool.Put(buf)
	ncMax := min(kern.nc, ceilDiv(j1-j0, nr)*nr)
	mcMax := min(kern.mc, ceilDiv(i1-i0, mr)*mr)
	kcMax := min(kern.kc, p.k)
	buf.b = grow(buf.b, ncMax*kcMax)
	buf.a = grow(buf.a, mcMax*kcMax)
	buf.tile = grow(buf.tile, mr*nr)
	tile := buf.tile

	for jc := j0; jc < j1; jc += kern.nc {
		nc := min(kern.nc, j1-jc)
		for pc := 0; pc < p.k; pc += kern.kc {
			kc := min(kern.kc, p.k-pc)
			packB(buf.b, p.transB, p.b, p.ldb, pc, kc, jc, nc, nr)
			for ic := i0; ic < i1; ic += kern.mc {
				mc := min(kern.mc, i1-ic)
				packA(buf.a, p.transA, p.a, p.lda, ic, mc, pc, kc, mr, p.alpha)
				for jr := 0; jr < nc; jr += nr {
					bp := &buf.b[jr*kc]
					cols := min(nr, nc-jr)
					for ir := 0; ir < mc; ir += mr {
						ap := &buf.a[ir*kc]
						rows := min(mr, mc-ir)
						off := (ic+ir)*ldc + jc + jr
						if rows == mr && cols == nr {
							kern.fn(kc, ap, bp, &c[off], ldc, 1)
							continue
						}
						// Edge tile: compute the whole register tile
						// aside and add the part inside C.
						kern.fn(kc, ap, bp, &tile[0], nr, 0)
						for i := 0; i < rows; i++ {
							dst := c[off+i*ldc:][:cols]
							for j, v := range tile[i*nr : i*nr+cols] {
								dst[j] += v
							}
						}
					}
				}
			}
		}
	}
}

// scale sets C = beta·C on rows [i0, i1) and columns [j0, j1). beta == 0
// clears C without reading it, so NaNs there do not survive (as BLAS
// specifies).
func scale(c []float32, ldc, i0, i1, j0, j1 int, beta float32) {
	if beta == 1 {
		return
	}
	for i := i0; i < i1; i++ {
		row := c[i*ldc+j0 : i*ldc+j1]
		if beta == 0 {
			clear(row)
			continue
		}
		for j := range row {
			row[j] *= beta
		}
	}
}

func ceilDiv(a, b int) int { return (a + b - 1) / b }
