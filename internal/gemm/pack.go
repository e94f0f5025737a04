package gemm

// Packing copies a block of op(A) or op(B) into the order the micro-kernel
// reads it, so that the kernel streams both operands linearly. Panels at the
// edge are padded with zeros up to the full register tile; the padded rows and
// columns of the product are computed and then dropped.

// packA packs rows [i0, i0+mc) and inner indices [p0, p0+kc) of alpha·op(A)
// into ceil(mc/mr) micro-panels of kc×mr values: dst[panel][p*mr+i].
// Multiplying by alpha here costs one rounding per element of A, as in gonum.
func packA(dst []float32, trans bool, a []float32, lda, i0, mc, p0, kc, mr int, alpha float32) {
	for ir := 0; ir < mc; ir += mr {
		rows := min(mr, mc-ir)
		panel := dst[ir*kc : ir*kc+mr*kc]
		if trans {
			packATrans(panel, a, lda, i0+ir, rows, p0, kc, mr, alpha)
		} else {
			packANoTrans(panel, a, lda, i0+ir, rows, p0, kc, mr, alpha)
		}
	}
}

// packANoTrans: op(A)(i, p) = a[i*lda+p]; each row of A is read once and
// written with stride mr.
func packANoTrans(panel, a []float32, lda, i0, rows, p0, kc, mr int, alpha float32) {
	switch {
	case rows == mr && mr == 6:
		packANoTrans6(panel, a, lda, i0, p0, kc, alpha)
		return
	case rows == mr && mr == 12:
		packANoTrans12(panel, a, lda, i0, p0, kc, alpha)
		return
	}
	for i := 0; i < rows; i++ {
		src := a[(i0+i)*lda+p0:]
		src = src[:kc]
		if alpha == 1 {
			for p, v := range src {
				panel[p*mr+i] = v
			}
		} else {
			for p, v := range src {
				panel[p*mr+i] = alpha * v
			}
		}
	}
	if rows < mr {
		for p := 0; p < kc; p++ {
			clear(panel[p*mr+rows : p*mr+mr])
		}
	}
}

// packANoTrans6 is packANoTrans for a full panel of six rows, read as six
// streams side by side so that the panel is written in order: one pass of
// contiguous stores instead of six passes of stride-6 stores. (alpha·v is v
// exactly when alpha is 1.)
func packANoTrans6(panel, a []float32, lda, i0, p0, kc int, alpha float32) {
	r0 := a[(i0+0)*lda+p0:][:kc]
	r1 := a[(i0+1)*lda+p0:][:kc]
	r2 := a[(i0+2)*lda+p0:][:kc]
	r3 := a[(i0+3)*lda+p0:][:kc]
	r4 := a[(i0+4)*lda+p0:][:kc]
	r5 := a[(i0+5)*lda+p0:][:kc]
	panel = panel[:6*kc]
	for p := range r0 {
		d := (*[6]float32)(panel[p*6:])
		d[0] = alpha * r0[p]
		d[1] = alpha * r1[p]
		d[2] = alpha * r2[p]
		d[3] = alpha * r3[p]
		d[4] = alpha * r4[p]
		d[5] = alpha * r5[p]
	}
}

// packANoTrans12 is packANoTrans6 for the twelve rows of the AVX-512 kernel.
func packANoTrans12(panel, a []float32, lda, i0, p0, kc int, alpha float32) {
	var r [12][]float32
	for i := range r {
		r[i] = a[(i0+i)*lda+p0:][:kc]
	}
	panel = panel[:12*kc]
	for p := 0; p < kc; p++ {
		d := (*[12]float32)(panel[p*12:])
		for i := range d {
			d[i] = alpha * r[i][p]
		}
	}
}

// packATrans: op(A)(i, p) = a[p*lda+i]; each step of p is a contiguous run.
// Full panels of the kernels' heights are copied as fixed-size arrays: a
// memmove call per 6 or 12 floats costs more than the copy.
func packATrans(panel, a []float32, lda, i0, rows, p0, kc, mr int, alpha float32) {
	if alpha == 1 && rows == mr {
		switch mr {
		case 6:
			for p := 0; p < kc; p++ {
				*(*[6]float32)(panel[p*6:]) = *(*[6]float32)(a[(p0+p)*lda+i0:])
			}
			return
		case 12:
			for p := 0; p < kc; p++ {
				*(*[12]float32)(panel[p*12:]) = *(*[12]float32)(a[(p0+p)*lda+i0:])
			}
			return
		}
	}
	for p := 0; p < kc; p++ {
		src := a[(p0+p)*lda+i0:]
		src = src[:rows]
		d := panel[p*mr : p*mr+mr]
		if alpha == 1 {
			copy(d, src)
		} else {
			for i, v := range src {
				d[i] = alpha * v
			}
		}
		clear(d[rows:])
	}
}

// packB packs inner indices [p0, p0+kc) and columns [j0, j0+nc) of op(B) into
// ceil(nc/nr) micro-panels of kc×nr values: dst[panel][p*nr+j].
func packB(dst []float32, trans bool, b []float32, ldb, p0, kc, j0, nc, nr int) {
	for jr := 0; jr < nc; jr += nr {
		cols := min(nr, nc-jr)
		panel := dst[jr*kc : jr*kc+nr*kc]
		if trans {
			packBTrans(panel, b, ldb, p0, kc, j0+jr, cols, nr)
		} else {
			packBNoTrans(panel, b, ldb, p0, kc, j0+jr, cols, nr)
		}
	}
}

// packBNoTrans: op(B)(p, j) = b[p*ldb+j]; each step of p is a contiguous run.
// Full panels of the kernels' widths go through copyRows (SIMD moves on
// amd64: a [16]float32 copy in Go is a memmove call per row, about 8% of a
// one-thread 1024³ product and, since every thread packs all of B, a drag
// on two-thread scaling).
func packBNoTrans(panel, b []float32, ldb, p0, kc, j0, cols, nr int) {
	if cols == nr && (nr == 16 || nr == 32) {
		copyRows(panel, b[p0*ldb+j0:], ldb, kc, nr)
		return
	}
	for p := 0; p < kc; p++ {
		d := panel[p*nr : p*nr+nr]
		copy(d, b[(p0+p)*ldb+j0:][:cols])
		clear(d[cols:])
	}
}

// packBTrans: op(B)(p, j) = b[j*ldb+p]; each column of op(B) is read once and
// written with stride nr.
func packBTrans(panel, b []float32, ldb, p0, kc, j0, cols, nr int) {
	for j := 0; j < cols; j++ {
		src := b[(j0+j)*ldb+p0:]
		src = src[:kc]
		for p, v := range src {
			panel[p*nr+j] = v
		}
	}
	if cols < nr {
		for p := 0; p < kc; p++ {
			clear(panel[p*nr+cols : p*nr+nr])
		}
	}
}
