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

// packBNoTrans: op(B)(p, j) = b[p*ldb+j]; each step of p is a contiguous run,
// copied as a fixed-size array for full panels of the kernels' widths.
func packBNoTrans(panel, b []float32, ldb, p0, kc, j0, cols, nr int) {
	if cols == nr {
		switch nr {
		case 16:
			for p := 0; p < kc; p++ {
				*(*[16]float32)(panel[p*16:]) = *(*[16]float32)(b[(p0+p)*ldb+j0:])
			}
			return
		case 32:
			for p := 0; p < kc; p++ {
				*(*[32]float32)(panel[p*32:]) = *(*[32]float32)(b[(p0+p)*ldb+j0:])
			}
			return
		}
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
