package features

import "math"

// Kaldi's float vector products go through cblas (VecVec is cblas_sdot,
// AddMatVec is cblas_sgemv). The kaldi-golden and kaldi-mini archives were
// made with Kaldi built against Debian 12's OpenBLAS 0.3.21 on an x86-64
// machine with AVX2 (MANIFEST.md), so reproducing their float32 values bit
// for bit means adding the products in the order OpenBLAS's Haswell
// kernels add them, rounding where they round. The functions below follow
// OpenBLAS's kernel/x86_64/sdot.c with sdot_microk_haswell-2.c, and
// sgemv_t_4.c with sgemv_t_microk_haswell-4.c, operation by operation.

// fmaf is a fused multiply-add in float: a·b+c rounded once (the exact
// product of two floats fits a double, so the double FMA rounded to float
// differs from a float FMA only when the double result lands exactly
// halfway between two floats, which the sums here practically never do).
func fmaf(a, b, c float32) float32 {
	return float32(math.FMA(float64(a), float64(b), float64(c)))
}

// mul32 is a float product (the conversion keeps the compiler from fusing
// it into a following addition).
func mul32(a, b float32) float32 { return float32(a * b) }

// sdotKaldi is OpenBLAS's sdot (unit strides) on x86-64 with AVX2, which
// is what Kaldi's VecVec<float> computes, of x and y[0], y[stride], …
// (y holds float values; stride lets the mel filters read the batched,
// element-major spectra in place): the first n&−32 products go through the
// AVX2 micro-kernel (four 8-lane float accumulators, one FMA per element,
// then a fixed reduction tree), the remaining ones are rounded to float
// and added one by one to a double, and the kernel's float sum is added to
// that double last; the result is rounded to float.
func sdotKaldi[T float32 | float64](x []float32, y []T, stride int) float32 {
	n := len(x)
	if n == 0 {
		return 0
	}
	_ = y[(n-1)*stride]
	n1 := n &^ 31
	if tailVariant > 0 {
		var k float32
		if n1 > 0 {
			if useSKX {
				k = sdotKernelSKX(x[:n1], y, stride)
			} else {
				k = sdotKernel16(x[:n1], y, stride)
			}
		}
		var d float32
		for i := n1; i < n; i++ {
			if tailVariant == 1 {
				d = fmaf(float32(y[i*stride]), x[i], d)
			} else {
				d += mul32(float32(y[i*stride]), x[i])
			}
		}
		return d + k
	}
	var dot float64
	for i := n1; i < n; i++ {
		dot += float64(mul32(float32(y[i*stride]), x[i]))
	}
	if n1 > 0 {
		if useSKX {
			dot += float64(sdotKernelSKX(x[:n1], y, stride))
		} else {
			dot += float64(sdotKernel16(x[:n1], y, stride))
		}
	}
	return float32(dot)
}

// sdotKernel16 is sdot_microk_haswell-2.c's sdot_kernel_16 (len(x) a
// multiple of 32).
func sdotKernel16[T float32 | float64](x []float32, y []T, stride int) float32 {
	var acc [4][8]float32
	for i := 0; i < len(x); i += 32 {
		for k := range acc {
			for l := range acc[k] {
				j := i + 8*k + l
				if kernelNoFMA {
					acc[k][l] += mul32(float32(y[j*stride]), x[j])
				} else {
					acc[k][l] = fmaf(float32(y[j*stride]), x[j], acc[k][l])
				}
			}
		}
	}
	// vextractf128 + vaddps: fold each ymm to four lanes; then
	// (a4+a5)+(a6+a7) lane-wise; then two vhaddps.
	var v [4][4]float32
	for k := range acc {
		for l := 0; l < 4; l++ {
			v[k][l] = acc[k][l] + acc[k][l+4]
		}
	}
	var z [4]float32
	for l := range z {
		z[l] = (v[0][l] + v[1][l]) + (v[2][l] + v[3][l])
	}
	return (z[0] + z[1]) + (z[2] + z[3])
}

// sgemvKaldi sets y[r] = Σ_c a[r·cols+c]·x[c] for a row-major rows×cols
// matrix as Kaldi's AddMatVec(1, A, kNoTrans, x, 0) does through
// cblas_sgemv(CblasRowMajor, CblasNoTrans, …). OpenBLAS runs a row-major
// no-transpose product as its column-major transposed kernel sgemv_t with
// m = cols (the dot-product length) and n = rows: y is zeroed (beta = 0),
// the first m&−4 columns of each group of four rows go through the AVX2
// 4×4 kernel, a last pair of rows through the SSE 4×2 kernel, a last row
// through the SSE 4×1 kernel, and the last m&3 columns are added at the end
// by plain C code (compiled with FMA contraction for the Haswell target).
func sgemvKaldi(a []float32, rows, cols int, x, y []float32) {
	y = y[:rows]
	switch dctVariant {
	case 8:
		nb := cols - cols%4
		for r := range y {
			row := a[r*cols : (r+1)*cols]
			var temp float32
			for i := 0; i < nb; i += 4 {
				temp += ((mul32(row[i], x[i]) + mul32(row[i+1], x[i+1])) + mul32(row[i+2], x[i+2])) + mul32(row[i+3], x[i+3])
			}
			var t float32
			for i := nb; i < cols; i++ {
				if i == nb {
					t = mul32(row[i], x[i])
				} else {
					t += mul32(row[i], x[i])
				}
			}
			if nb < cols {
				temp += t
			}
			y[r] = temp
		}
		return
	case 1:
		for r := range y {
			var s float64
			for c := 0; c < cols; c++ {
				s += float64(a[r*cols+c]) * float64(x[c])
			}
			y[r] = float32(s)
		}
		return
	case 4, 5:
		for r := range y {
			var s float32
			for c := 0; c < cols; c++ {
				if dctVariant == 4 {
					s = fmaf(a[r*cols+c], x[c], s)
				} else {
					s += mul32(a[r*cols+c], x[c])
				}
			}
			y[r] = s
		}
		return
	}
	clear(y)
	m3 := cols & 3
	nb := cols - m3 // cols < NBMAX (4096): one block
	if nb > 0 {
		r := 0
		for ; r+4 <= rows; r += 4 {
			for q := 0; q < 4; q++ {
				y[r+q] = sgemvT4x4(a[(r+q)*cols:(r+q)*cols+nb], x[:nb])
			}
		}
		if (rows-r)&2 != 0 {
			y[r] = sgemvT4x2(a[r*cols:r*cols+nb], x[:nb])
			y[r+1] = sgemvT4x2(a[(r+1)*cols:(r+1)*cols+nb], x[:nb])
			r += 2
		}
		if r < rows {
			y[r] = sgemvT4x1(a[r*cols:r*cols+nb], x[:nb])
		}
	}
	if m3 == 0 {
		return
	}
	// The tail, y_j += a0·x0 + a1·x1 + a2·x2 in C: GCC contracts it to
	// fma(a2, x2, fma(a1, x1, a0·x0)) before the addition to y_j.
	xt := x[nb:cols]
	for r := range y {
		at := a[r*cols+nb : r*cols+cols]
		if dctVariant == 6 || dctVariant == 7 {
			var t float32
			switch m3 {
			case 1:
				t = mul32(at[0], xt[0])
			case 2:
				t = fmaf(at[0], xt[0], mul32(at[1], xt[1]))
			case 3:
				t = fmaf(at[2], xt[2], fmaf(at[0], xt[0], mul32(at[1], xt[1])))
			}
			y[r] += t
			continue
		}
		t := mul32(at[0], xt[0])
		for c := 1; c < m3; c++ {
			if dctVariant == 3 {
				t += mul32(at[c], xt[c])
			} else {
				t = fmaf(at[c], xt[c], t)
			}
		}
		y[r] += t
	}
}

// sgemvT4x4 is one row of sgemv_t_microk_haswell-4.c's sgemv_kernel_4x4 on
// n (a multiple of 4) columns: 4 columns into lanes 0–3 if n&4, then 8 if
// n&8, then blocks of 16 as two 8-lane FMAs; the 8 lanes fold to 4
// (lane l + lane l+4) and two horizontal adds.
func sgemvT4x4(a, x []float32) float32 {
	n := len(a)
	if dctVariant == 2 || dctVariant == 7 {
		return sgemvT4x2(a, x)
	}
	var acc [8]float32
	i := 0
	if n&4 != 0 {
		for l := 0; l < 4; l++ {
			acc[l] = fmaf(a[l], x[l], acc[l])
		}
		i = 4
	}
	if (n-i)&8 != 0 {
		for l := 0; l < 8; l++ {
			acc[l] = fmaf(a[i+l], x[i+l], acc[l])
		}
		i += 8
	}
	for ; i < n; i += 16 {
		for l := 0; l < 8; l++ {
			acc[l] = fmaf(a[i+l], x[i+l], acc[l])
		}
		for l := 0; l < 8; l++ {
			acc[l] = fmaf(a[i+8+l], x[i+8+l], acc[l])
		}
	}
	v0, v1, v2, v3 := acc[0]+acc[4], acc[1]+acc[5], acc[2]+acc[6], acc[3]+acc[7]
	return (v0 + v1) + (v2 + v3)
}

// sgemvT4x2 is one row of sgemv_t_4.c's SSE sgemv_kernel_4x2: products
// rounded to float (mulps), added into one 4-lane accumulator, then two
// horizontal adds.
func sgemvT4x2(a, x []float32) float32 {
	var acc [4]float32
	for i := 0; i < len(a); i += 4 {
		for l := 0; l < 4; l++ {
			acc[l] += mul32(a[i+l], x[i+l])
		}
	}
	return (acc[0] + acc[1]) + (acc[2] + acc[3])
}

// sgemvT4x1 is sgemv_t_4.c's SSE sgemv_kernel_4x1: the first 4 columns (if
// n&4) and then every other block of 4 into one accumulator, the blocks in
// between into a second, the two added, then two horizontal adds.
func sgemvT4x1(a, x []float32) float32 {
	n := len(a)
	var acc0, acc1 [4]float32
	i := 0
	if n&4 != 0 {
		for l := 0; l < 4; l++ {
			acc0[l] += mul32(a[l], x[l])
		}
		i = 4
	}
	for ; i < n; i += 8 {
		for l := 0; l < 4; l++ {
			acc0[l] += mul32(a[i+l], x[i+l])
			acc1[l] += mul32(a[i+4+l], x[i+4+l])
		}
	}
	var v [4]float32
	for l := range v {
		v[l] = acc1[l] + acc0[l]
	}
	return (v[0] + v[1]) + (v[2] + v[3])
}

// sdotKernelSKX is sdot_microk_skylakex-2.c's kernel (len(x) a multiple of
// 32).
func sdotKernelSKX[T float32 | float64](x []float32, y []T, stride int) float32 {
	n1 := len(x)
	n64 := n1 &^ 63
	var a [64]float32
	i := 0
	for ; i < n64; i += 64 {
		for j := range a {
			a[j] = fmaf(float32(y[(i+j)*stride]), x[i+j], a[j])
		}
	}
	var acc [32]float32
	for r := 0; r < 4; r++ {
		for j := 0; j < 8; j++ {
			acc[8*r+j] = a[16*r+j] + a[16*r+8+j]
		}
	}
	for ; i < n1; i += 32 {
		for j := range acc {
			acc[j] = fmaf(float32(y[(i+j)*stride]), x[i+j], acc[j])
		}
	}
	var s [8]float32
	for j := range s {
		s[j] = ((acc[j] + acc[8+j]) + acc[16+j]) + acc[24+j]
	}
	var h [4]float32
	for j := range h {
		h[j] = s[j] + s[4+j]
	}
	return (h[0] + h[1]) + (h[2] + h[3])
}

var useSKX = false

var tailVariant = 0

var dctVariant = 8

var kernelNoFMA = false
