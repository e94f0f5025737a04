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

// tasksPerThread is how many compute tasks each thread gets at least, so that
// a thread slowed down by other processes on the machine delays the product
// by a fraction of its share, not by all of it.
const tasksPerThread = 4

// sgemm computes C = alpha·op(A)·op(B) + beta·C for row-major operands whose
// sizes have already been checked.
//
// The loops are BLIS's (Van Zee & van de Geijn, 2015), mirrored for
// row-major C: for each block of nc columns and kc inner indices, the kc×nc
// block of op(B) is packed once and shared; then tasks of (mc rows × a run of
// nr-column panels) are handed out to the threads, each packing its rows of A
// and sweeping the micro-kernel over the panels.
//
// Determinism: a task owns its elements of C, the inner dimension is cut into
// blocks of kc at fixed offsets, each block is summed in order by the
// micro-kernel and then added to C, one block after the other. How the work
// is cut into tasks and which thread runs one decides who computes a tile,
// never how, so the result is bitwise the same for any thread count.
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
	kern := p.kern
	mr, nr := kern.mr, kern.nr
	kcMax := min(kern.kc, p.k)
	ncMax := min(kern.nc, ceilDiv(p.n, nr)*nr)

	// Cut the rows into blocks of at most mc, of equal size (whole tiles),
	// in a multiple of the thread count so that the threads finish
	// together, and, when that gives too few tasks, the panels of a column
	// block into runs as well.
	rowBlocks := ceilDiv(p.m, kern.mc)
	want := threads * tasksPerThread
	if threads > 1 {
		rowBlocks = min(ceilDiv(max(rowBlocks, want), threads)*threads, ceilDiv(p.m, mr))
	}
	mc := ceilDiv(ceilDiv(p.m, rowBlocks), mr) * mr
	rowBlocks = ceilDiv(p.m, mc)
	panelRun := ceilDiv(ncMax, nr)
	if threads > 1 && rowBlocks < want {
		runs := min(ceilDiv(want, rowBlocks), ceilDiv(ncMax, nr))
		panelRun = ceilDiv(ceilDiv(ncMax, nr), runs)
	}

	shared := bufferPool.Get().(*buffers)
	defer bufferPool.Put(shared)
	shared.b = grow(shared.b, ncMax*kcMax)
	bp := shared.b

	workers := make([]*buffers, threads)
	for w := range workers {
		buf := bufferPool.Get().(*buffers)
		buf.a = grow(buf.a, mc*kcMax)
		buf.tile = grow(buf.tile, mr*nr)
		workers[w] = buf
	}
	defer func() {
		for _, buf := range workers {
			bufferPool.Put(buf)
		}
	}()

	for jc := 0; jc < p.n; jc += kern.nc {
		nc := min(kern.nc, p.n-jc)
		panels := ceilDiv(nc, nr)
		for pc := 0; pc < p.k; pc += kern.kc {
			kc := min(kern.kc, p.k-pc)
			// Pack the shared block of B, a few panels per task.
			const panelsPerPackTask = 4
			parallel(threads, ceilDiv(panels, panelsPerPackTask), func(_, t int) {
				j0 := t * panelsPerPackTask * nr
				j1 := min(nc, j0+panelsPerPackTask*nr)
				packB(bp[j0*kc:], p.transB, p.b, p.ldb, pc, kc, jc+j0, j1-j0, nr)
			})
			runs := ceilDiv(panels, panelRun)
			parallel(threads, rowBlocks*runs, func(w, t int) {
				ic := (t / runs) * mc
				jr0 := (t % runs) * panelRun * nr
				jr1 := min(nc, jr0+panelRun*nr)
				p.block(workers[w], bp, ic, min(mc, p.m-ic), pc, kc, jc, jr0, jr1)
			})
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
