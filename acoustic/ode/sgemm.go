package ode

import (
	"fmt"
	"unsafe"
)

// sgemm is the float32 product of the fused Euler kernel in its float32 form
// (eulerMLP32): C += A·B for an m×k A read through strides, A(i, p) =
// a[i·ars + p·acs] — row-major (ars = lda, acs = 1) or stored transposed
// (ars = 1, acs = lda) at the same cost — and row-major B (k×n) and C (m×n).
// Its products are small (at most 450×100×100), where packing both operands
// as a general SGEMM does costs about as much as the arithmetic; this one
// reads A and B in place, 6×16 blocks of C in an AVX2/FMA micro-kernel
// (sgemm6x16), and pads only the edge blocks. Each element of C gets one
// sum over p in order, with one FMA per term, started from zero and then
// added to C, whichever block it falls in: results do not depend on m, n or
// the position in C.
type sgemm struct {
	bp []float32 // k×16: B's last columns, zero-padded
	ap []float32 // k×6: A's last rows, zero-padded, as A(i, p) = ap[p·6 + i]
}

// mul is C += A·B (see sgemm). Inconsistent sizes panic.
func (s *sgemm) mul(m, n, k int, a []float32, ars, acs int, b []float32, ldb int, c []float32, ldc int) {
	if m == 0 || n == 0 || k == 0 {
		return
	}
	if len(a) < (m-1)*ars+(k-1)*acs+1 || len(b) < (k-1)*ldb+n || len(c) < (m-1)*ldc+n || ldb < n || ldc < n {
		panic(fmt.Sprintf("ode: sgemm %d×%d×%d: operands too short (a %d, b %d ldb %d, c %d ldc %d)", m, n, k, len(a), len(b), ldb, len(c), ldc))
	}
	kern := sgemm6x16
	if !haveFMA {
		kern = sgemm6x16Go
	}
	m6, n16 := m/6*6, n/16*16
	// Column panels outside, so one k×16 panel of B stays in L1 while the
	// row blocks of A stream past it.
	for j := 0; j < n16; j += 16 {
		for i := 0; i < m6; i += 6 {
			kern(k, &a[i*ars], ars, acs, &b[j], ldb, &c[i*ldc+j], ldc)
		}
	}
	var ct [6 * 16]float32
	// addTile adds the first rows×cols of ct to C at (i, j).
	addTile := func(i, j, rows, cols int) {
		for r := 0; r < rows; r++ {
			for q, v := range ct[r*16 : r*16+cols] {
				c[(i+r)*ldc+j+q] += v
			}
		}
	}
	if n16 < n {
		s.bp = grow(s.bp, k*16)
		for p := 0; p < k; p++ {
			row := s.bp[p*16 : (p+1)*16]
			clear(row[copy(row, b[p*ldb+n16:p*ldb+n]):])
		}
		for i := 0; i < m6; i += 6 {
			ct = [6 * 16]float32{}
			kern(k, &a[i*ars], ars, acs, &s.bp[0], 16, &ct[0], 16)
			addTile(i, n16, 6, n-n16)
		}
	}
	if m6 < m {
		s.ap = grow(s.ap, k*6)
		for p := 0; p < k; p++ {
			for i := 0; i < 6; i++ {
				v := float32(0)
				if m6+i < m {
					v = a[(m6+i)*ars+p*acs]
				}
				s.ap[p*6+i] = v
			}
		}
		for j := 0; j < n; j += 16 {
			bt, ldt := b[j:], ldb
			if j == n16 {
				bt, ldt = s.bp, 16
			}
			ct = [6 * 16]float32{}
			kern(k, &s.ap[0], 1, 6, &bt[0], ldt, &ct[0], 16)
			addTile(m6, j, m-m6, min(16, n-j))
		}
	}
}

// grow returns buf with length n, reallocating only when it is too short.
func grow(buf []float32, n int) []float32 {
	if cap(buf) < n {
		return make([]float32, n)
	}
	return buf[:n]
}

// sgemm6x16Go is sgemm6x16 in Go (no AVX2/FMA, or another architecture).
func sgemm6x16Go(k int, a *float32, ars, acs int, b *float32, ldb int, c *float32, ldc int) {
	as := unsafe.Slice(a, 5*ars+(k-1)*acs+1)
	bs := unsafe.Slice(b, (k-1)*ldb+16)
	cs := unsafe.Slice(c, 5*ldc+16)
	for i := 0; i < 6; i++ {
		var acc [16]float32
		for p := 0; p < k; p++ {
			av := as[i*ars+p*acs]
			for j, bv := range bs[p*ldb : p*ldb+16] {
				acc[j] += av * bv
			}
		}
		for j, v := range acc {
			cs[i*ldc+j] += v
		}
	}
}
