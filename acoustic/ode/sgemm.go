package ode

import (
	"fmt"
	"github.com/strode-asr/strode/internal/f32"
	"unsafe"
)

// sgemm is the float32 product of the fused Euler kernel in its float32 form
// (eulerMLP32): C += A·B for an m×k A read through strides, A(i, p) =
// a[i·ars + p·acs] — row-major (ars = lda, acs = 1) or stored transposed
// (ars = 1, acs = lda) at the same cost — and row-major B (k×n) and C (m×n).
// Its products are small (at most 450×100×100, down to 450×8×8 at the
// paper's sizes), where packing both operands as a general SGEMM does costs
// about as much as the arithmetic; this one reads A and B in place, 6×16 and
// 6×8 blocks of C in AVX2/FMA micro-kernels (sgemm6x16, sgemm6x8), and pads
// only the edge blocks (fewer than 8 columns, or 6 rows). Each element of C
// gets, for each block of sgemmKC steps over p in order, one sum with one
// FMA per term, started from zero and then added to C, whichever block of
// C it falls in: results do not depend on m, n or the position in C.
type sgemm struct {
	bp    []float32 // k×8: B's last (< 8) columns, zero-padded
	ap    []float32 // k×6: A's last (< 6) rows, zero-padded, as A(i, p) = ap[p·6 + i]
	ones  []float32 // k×6: the panel of a row of ones (sumRows)
	tiles []colTile
	ct    [6 * 16]float32
}

// colTile is a block of columns of B: width 16 or 8, read from b (leading
// dimension ldb) at column j, or from the padded copy, and the micro-kernel
// of its width.
type colTile struct {
	j, width, cols int // cols ≤ width are real
	b              []float32
	ldb            int
	kern           microKernel
}

// sgemmKC is the number of steps over p per kernel call: a 128×16 panel of
// B (8 KiB) and 128 cache lines of A fit in L1 beside each other. Without
// it, the weight-gradient products (k = 450 rows, A stored transposed) ran
// 2.5 times slower than the forward ones of the same size.
const sgemmKC = 128

type microKernel func(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int)

// mul is C += A·B (see sgemm). Inconsistent sizes panic.
func (s *sgemm) mul(m, n, k int, a []float32, ars, acs int, b []float32, ldb int, c []float32, ldc int) {
	s.mulPanel(m, n, k, a, ars, acs, b, ldb, c, ldc, nil)
}

// sumRows is c (1×n) += 1ᵀ·B, the column sums of the k×n B, as a product
// whose padded A panel (a column of ones) is built once per k.
func (s *sgemm) sumRows(n, k int, b []float32, ldb int, c []float32) {
	if len(s.ones) != k*6 {
		s.ones = make([]float32, k*6)
		for p := 0; p < k; p++ {
			s.ones[p*6] = 1
		}
	}
	s.mulPanel(1, n, k, s.ones, 0, 1, b, ldb, c, n, s.ones)
}

// mulPanel is mul; edge, when not nil, is A's last m − ⌊m/6⌋·6 rows already
// as the zero-padded k×6 panel.
func (s *sgemm) mulPanel(m, n, k int, a []float32, ars, acs int, b []float32, ldb int, c []float32, ldc int, edge []float32) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	if len(a) < (m-1)*ars+(k-1)*acs+1 || len(b) < (k-1)*ldb+n || len(c) < (m-1)*ldc+n || ldb < n || ldc < n {
		panic(fmt.Sprintf("ode: sgemm %d×%d×%d: operands too short (a %d, b %d ldb %d, c %d ldc %d)", m, n, k, len(a), len(b), ldb, len(c), ldc))
	}
	k16, k8 := microKernel(sgemm6x16), microKernel(sgemm6x8)
	if !haveFMA {
		k16, k8 = sgemm6x16Go, sgemm6x8Go
	}
	s.tiles = s.tiles[:0]
	j := 0
	for ; j+16 <= n; j += 16 {
		s.tiles = append(s.tiles, colTile{j, 16, 16, b[j:], ldb, k16})
	}
	if j+8 <= n {
		s.tiles = append(s.tiles, colTile{j, 8, 8, b[j:], ldb, k8})
		j += 8
	}
	if j < n {
		s.bp = f32.Grow(s.bp, k*8)
		for p := 0; p < k; p++ {
			row := s.bp[p*8 : (p+1)*8]
			clear(row[copy(row, b[p*ldb+j:p*ldb+n]):])
		}
		s.tiles = append(s.tiles, colTile{j, 8, n - j, s.bp, 8, k8})
	}
	ct := &s.ct // a padded block's result (a field: a local that the closure captures would be allocated per call)
	// addTile adds the first rows×cols of ct (leading dimension w) to C at (i, j).
	addTile := func(i, j, rows, cols, w int) {
		for r := 0; r < rows; r++ {
			ci := c[(i+r)*ldc+j : (i+r)*ldc+j+cols]
			for q, v := range ct[r*w : r*w+cols] {
				ci[q] += v
			}
		}
	}
	m6 := m / 6 * 6
	// Blocks of sgemmKC steps over p outside, then column tiles, so one
	// kc×16 panel of B and the kc rows of A's block (a cache line each when
	// A is stored transposed) stay in L1 while the row blocks stream past.
	for p0 := 0; p0 < k; p0 += sgemmKC {
		kc := min(sgemmKC, k-p0)
		for _, t := range s.tiles {
			kern := t.kern
			bt := t.b[p0*t.ldb:]
			for i := 0; i < m6; i += 6 {
				ai := &a[i*ars+p0*acs]
				if t.cols == t.width {
					kern(kc, ai, ars, acs, &bt[0], t.ldb, &c[i*ldc+t.j], ldc)
					continue
				}
				*ct = [6 * 16]float32{}
				kern(kc, ai, ars, acs, &bt[0], t.ldb, &ct[0], t.width)
				addTile(i, t.j, 6, t.cols, t.width)
			}
		}
	}
	if m6 < m {
		if edge == nil {
			rem := m - m6
			s.ap = f32.Grow(s.ap, k*6)
			for p := 0; p < k; p++ {
				row := s.ap[p*6 : p*6+6]
				for i := range rem {
					row[i] = a[(m6+i)*ars+p*acs]
				}
				clear(row[rem:])
			}
			edge = s.ap
		}
		for p0 := 0; p0 < k; p0 += sgemmKC {
			kc := min(sgemmKC, k-p0)
			for _, t := range s.tiles {
				*ct = [6 * 16]float32{}
				t.kern(kc, &edge[p0*6], 1, 6, &t.b[p0*t.ldb], t.ldb, &ct[0], t.width)
				addTile(m6, t.j, m-m6, t.cols, t.width)
			}
		}
	}
}

// sgemm6x16Go and sgemm6x8Go are the micro-kernels in Go (no AVX2/FMA, or
// another architecture).
func sgemm6x16Go(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int) {
	sgemmGo(16, k, a, ars, acs, b, ldb, c, ldc)
}

func sgemm6x8Go(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int) {
	sgemmGo(8, k, a, ars, acs, b, ldb, c, ldc)
}

func sgemmGo(w, k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int) {
	as := unsafe.Slice(a, 5*ars+(k-1)*acs+1)
	bs := unsafe.Slice(b, (k-1)*ldb+w)
	cs := unsafe.Slice(c, 5*ldc+w)
	for i := 0; i < 6; i++ {
		var acc [16]float32
		for p := 0; p < k; p++ {
			av := as[i*ars+p*acs]
			for j, bv := range bs[p*ldb : p*ldb+w] {
				acc[j] += av * bv
			}
		}
		for j, v := range acc[:w] {
			cs[i*ldc+j] += v
		}
	}
}
