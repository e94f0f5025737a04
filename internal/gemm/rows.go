package gemm

import (
	"runtime"
	"sync/atomic"
)

// rowTasks computes a product split over rows with dynamic load balancing:
// the unit of work is one block of mc rows against one kc×nc block of op(B),
// and threads take the blocks of rows in order from a shared counter, one
// counter per B block, so a thread on a faster (or less interrupted) core
// simply does more of them. A static half each makes the product wait for
// the slower core: on the lent Xeon VM two one-thread processes on two cores
// ran at 111 and 97 GFLOP/s side by side, and a static two-way split came
// out at about 2 × 97.
//
// Every thread packs each B block it works on for itself (no barrier, no
// packed panels read across cores); only the order of updates to C is
// shared: rows i…i+mc of B block t (same columns, next kc slice) wait until
// the same rows of block t−1 are done, which keeps the sum over k in the
// order of one thread, and so the result bitwise the same for any thread
// count (see sgemm).
func (p *problem) rowTasks(threads int) {
	const rowTasksPerThread = 8
	kern := p.kern
	mr, nr := kern.mr, kern.nr
	kcMax := min(kern.kc, p.k)
	ncMax := min(kern.nc, ceilDiv(p.n, nr)*nr)
	// Blocks of rows: the cache block, or smaller so that there are at least
	// rowTasksPerThread per thread to balance (never under four register
	// tiles).
	rows := min(kern.mc, ceilDiv(p.m, mr)*mr)
	if ceilDiv(p.m, rows) < rowTasksPerThread*threads {
		rows = max(4*mr, ceilDiv(ceilDiv(p.m, rowTasksPerThread*threads), mr)*mr)
	}
	nRows := ceilDiv(p.m, rows)
	type bBlock struct{ jc, nc, pc, kc int }
	var blocks []bBlock
	for jc := 0; jc < p.n; jc += kern.nc {
		for pc := 0; pc < p.k; pc += kern.kc {
			blocks = append(blocks, bBlock{jc, min(kern.nc, p.n-jc), pc, min(kern.kc, p.k-pc)})
		}
	}
	next := make([]atomic.Int32, len(blocks))
	done := make([]atomic.Bool, len(blocks)*nRows)
	parallel(threads, threads, func(_, _ int) {
		buf := bufferPool.Get().(*buffers)
		buf.a = grow(buf.a, rows*kcMax)
		buf.b = grow(buf.b, ncMax*kcMax)
		buf.tile = grow(buf.tile, mr*nr)
		for t, b := range blocks {
			packed := false
			for {
				i := int(next[t].Add(1) - 1)
				if i >= nRows {
					break
				}
				if !packed {
					packB(buf.b, p.transB, p.b, p.ldb, b.pc, b.kc, b.jc, b.nc, nr)
					packed = true
				}
				if b.pc > 0 { // the previous block is the same columns' previous k slice
					for spins := 0; !done[(t-1)*nRows+i].Load(); spins++ {
						if spins > 100 {
							runtime.Gosched()
						}
					}
				}
				ic := i * rows
				p.block(buf, buf.b, ic, min(rows, p.m-ic), b.pc, b.kc, b.jc, 0, b.nc)
				done[t*nRows+i].Store(true)
			}
		}
		bufferPool.Put(buf)
	})
}
