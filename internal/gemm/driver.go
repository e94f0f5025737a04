package gemm

import (
	"sync"
	"sync/atomic"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/gonum"
)

// minParallelFlops is the size below which a product runs on the calling
// goroutine alone: starting and joining goroutines costs some microseconds,
// about what a core does with 2·64³ flops.
const minParallelFlops = 2 * 64 * 64 * 64

// minSlabTiles is the least number of register tiles a slab of C must span
// across its cut, so that a thread's share is not dominated by packing.
const minSlabTiles = 2

// sgemm computes C = alpha·op(A)·op(B) + beta·C for row-major operands whose
// sizes have already been checked.
//
// The loops are BLIS's (Van Zee & van de Geijn, 2015), mirrored for
// row-major C: for each block of nc columns and kc inner indices the kc×nc
// block of op(B) is packed, then each block of mc rows of op(A) is packed and
// the micro-kernel sweeps it against every nr-column panel of the B block.
//
// Threads: C is cut across rows or columns (see split), and every thread
// packs its own panels (nothing packed is shared: on 2 cores, the per-block
// hand-offs of a shared packed B cost more than they save, measured on both
// machines we have). Across rows, threads take blocks of rows dynamically
// (rowTasks), so unequal cores share the work by their speed; across columns
// each thread computes one slab. The price of private panels is that every
// thread packs all of the operand along the uncut side; the cut goes across
// the dimension that makes that copy the smaller.
//
// Determinism: the inner dimension is never cut; it is cut into blocks of kc
// at fixed offsets, each block is summed in order by the micro-kernel and then
// added to C, one block after the other. Where the slab boundaries fall decides
// who computes a tile, never how, so the result is bitwise the same for any
// thread count.
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
	threads := Threads()
	if 2*float64(m)*float64(n)*float64(k) < minParallelFlops {
		threads = 1
	}
	if alpha == 0 || k == 0 {
		parallel(threads, ceilDiv(m, kern.mr), func(_, t int) {
			i0 := t * kern.mr
			scale(c, ldc, i0, min(m, i0+kern.mr), 0, n, beta)
		})
		return
	}
	p := &problem{
		kern: kern, transA: transA, transB: transB, m: m, n: n, k: k, alpha: alpha,
		a: a, lda: lda, b: b, ldb: ldb, beta: beta, c: c, ldc: ldc,
	}
	p.run(threads)
}

// problem is one product, shared by the threads computing it.
type problem struct {
	kern           *microKernel
	transA, transB bool
	m, n, k        int
	alpha, beta    float32
	a, b, c        []float32
	lda, ldb, ldc  int
}

// run computes the product on up to threads goroutines.
func (p *problem) run(threads int) {
	byRows, slabs, size := p.split(threads)
	if slabs <= 1 {
		buf := bufferPool.Get().(*buffers)
		p.serial(buf)
		bufferPool.Put(buf)
		return
	}
	if byRows {
		p.rowTasks(slabs)
		return
	}
	parallel(slabs, slabs, func(_, s int) {
		lo := s * size
		sub := *p
		if byRows {
			sub.m = min(size, p.m-lo)
			sub.a = p.a[lo*rowStep(!p.transA, p.lda):]
			sub.c = p.c[lo*p.ldc:]
		} else {
			sub.n = min(size, p.n-lo)
			sub.b = p.b[lo*rowStep(p.transB, p.ldb):]
			sub.c = p.c[lo:]
		}
		buf := bufferPool.Get().(*buffers)
		sub.serial(buf)
		bufferPool.Put(buf)
	})
}

// rowStep is how far apart consecutive indices of the cut dimension lie in a
// stored operand: a row stride when that dimension runs down the rows.
func rowStep(downRows bool, ld int) int {
	if downRows {
		return ld
	}
	return 1
}

// split decides how to cut C among threads: into slabs of rows (byRows) or of
// columns, how many, and how many rows or columns each holds (a whole number
// of register tiles). Cutting rows makes every thread pack all of op(B)
// (k·n values), cutting columns all of op(A) (m·k): the cut goes the way that
// copies less, when that side is wide enough to give each thread
// minSlabTiles tiles.
func (p *problem) split(threads int) (byRows bool, slabs, size int) {
	mr, nr := p.kern.mr, p.kern.nr
	rowTiles, colTiles := ceilDiv(p.m, mr), ceilDiv(p.n, nr)
	rowsOK := rowTiles >= threads*minSlabTiles
	colsOK := colTiles >= threads*minSlabTiles
	switch {
	case threads <= 1 || (!rowsOK && !colsOK):
		return true, 1, p.m
	case rowsOK && (!colsOK || p.n <= p.m):
		size = ceilDiv(rowTiles, threads) * mr
		return true, ceilDiv(p.m, size), size
	default:
		size = ceilDiv(colTiles, threads) * nr
		return false, ceilDiv(p.n, size), size
	}
}

// serial computes the product on the calling goroutine with the buffers buf.
func (p *problem) serial(buf *buffers) {
	kern := p.kern
	mr := kern.mr
	kcMax := min(kern.kc, p.k)
	ncMax := min(kern.nc, ceilDiv(p.n, kern.nr)*kern.nr)
	mcMax := min(kern.mc, ceilDiv(p.m, mr)*mr)
	buf.a = grow(buf.a, mcMax*kcMax)
	buf.b = grow(buf.b, ncMax*kcMax)
	buf.tile = grow(buf.tile, mr*kern.nr)
	for jc := 0; jc < p.n; jc += kern.nc {
		nc := min(kern.nc, p.n-jc)
		for pc := 0; pc < p.k; pc += kern.kc {
			kc := min(kern.kc, p.k-pc)
			packB(buf.b, p.transB, p.b, p.ldb, pc, kc, jc, nc, kern.nr)
			for ic := 0; ic < p.m; ic += mcMax {
				p.block(buf, buf.b, ic, min(mcMax, p.m-ic), pc, kc, jc, 0, nc)
			}
		}
	}
}

// block computes rows [ic, ic+mc) of C against columns [jc+jr0, jc+jr1) for
// inner indices [pc, pc+kc), given the packed block of B at bp.
func (p *problem) block(buf *buffers, bp []float32, ic, mc, pc, kc, jc, jr0, jr1 int) {
	kern := p.kern
	mr, nr := kern.mr, kern.nr
	c, ldc := p.c, p.ldc
	// The first block of the inner dimension overwrites C when beta is 0,
	// and adds to beta·C otherwise.
	add := 1
	if pc == 0 {
		switch p.beta {
		case 0:
			add = 0
		case 1:
		default:
			scale(c, ldc, ic, ic+mc, jc+jr0, jc+jr1, p.beta)
		}
	}
	packA(buf.a, p.transA, p.a, p.lda, ic, mc, pc, kc, mr, p.alpha)
	tile := buf.tile
	for jr := jr0; jr < jr1; jr += nr {
		bpanel := &bp[jr*kc]
		cols := min(nr, jr1-jr)
		for ir := 0; ir < mc; ir += mr {
			ap := &buf.a[ir*kc]
			rows := min(mr, mc-ir)
			off := (ic+ir)*ldc + jc + jr
			if rows == mr && cols == nr {
				kern.fn(kc, ap, bpanel, &c[off], ldc, add)
				continue
			}
			// Edge tile: compute the whole register tile aside and
			// store or add the part inside C, as the kernel would.
			kern.fn(kc, ap, bpanel, &tile[0], nr, 0)
			for i := 0; i < rows; i++ {
				dst := c[off+i*ldc:][:cols]
				src := tile[i*nr:][:cols]
				if add == 0 {
					copy(dst, src)
					continue
				}
				for j, v := range src {
					dst[j] += v
				}
			}
		}
	}
}

// parallel runs task(worker, t) for t = 0..tasks-1 on up to threads
// goroutines (the caller is one of them), handing tasks out in order as the
// workers become free, and returns when all are done.
func parallel(threads, tasks int, task func(worker, t int)) {
	threads = min(threads, tasks)
	if threads <= 1 {
		for t := 0; t < tasks; t++ {
			task(0, t)
		}
		return
	}
	var next atomic.Int64
	work := func(w int) {
		for {
			t := int(next.Add(1) - 1)
			if t >= tasks {
				return
			}
			task(w, t)
		}
	}
	var wg sync.WaitGroup
	wg.Add(threads - 1)
	for w := 1; w < threads; w++ {
		go func() {
			defer wg.Done()
			work(w)
		}()
	}
	work(0)
	wg.Wait()
}

// buffers are packed panels and an edge tile, reused across calls.
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
