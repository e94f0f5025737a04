package features

import "math"

// Kaldi's float vector products go through cblas: MelBanks::Compute's
// VecVec is cblas_sdot, MfccComputer's DCT (AddMatVec) is cblas_sgemv. The
// kaldi-golden and kaldi-mini archives were made by Kaldi linked with
// Debian 12's OpenBLAS 0.3.21 (../shared/kaldi-golden/MANIFEST.md), so
// reproducing their float32 values bit for bit means adding the products
// in the order those OpenBLAS kernels add them and rounding where they
// round. Which kernels ran depends on the CPU OpenBLAS detected, which the
// manifests do not record; the orders below are the ones that reproduce
// the archives best (see each function).

// fmaf is a fused multiply-add in float: a·b+c rounded once. The product
// of two floats is exact in a double, so the double FMA rounded to float
// differs from a float FMA only when the double result lands exactly
// halfway between two floats, which sums of these magnitudes practically
// never do.
func fmaf(a, b, c float32) float32 {
	return float32(math.FMA(float64(a), float64(b), float64(c)))
}

// mul32 is a product rounded to float (the conversion keeps the compiler
// from fusing it into a following addition).
func mul32(a, b float32) float32 { return float32(a * b) }

// sdotKaldi is OpenBLAS's sdot (kernel/x86_64/sdot.c with the AVX2 micro-
// kernel sdot_microk_haswell-2.c) of x and y[0], y[stride], … (y holds
// float values; stride lets the mel filters read the batched,
// element-major spectra in place). The first n&−32 products go through the
// micro-kernel (four 8-lane float accumulators, one FMA per element, then
// a fixed reduction tree); the remaining ones are rounded to float and
// added one by one to a double, the micro-kernel's float sum is added to
// that double last, and the result is rounded to float.
//
// Measured on kaldi-golden's binary fbank23/fbank40/fbank40e/fbank23_8k
// archives this order reproduces as many or more log mel energies than a
// double sum of the exact products (97.37/97.74/97.72/96.19 % against
// 97.48/97.56/97.54/95.68 %); most mel filters are shorter than 32 bins,
// where the two differ only by the rounding of each product to float.
func sdotKaldi[T float32 | float64](x []float32, y []T, stride int) float32 {
	n := len(x)
	if n == 0 {
		return 0
	}
	_ = y[(n-1)*stride]
	n1 := n &^ 31
	var dot float64
	for i := n1; i < n; i++ {
		dot += float64(mul32(float32(y[i*stride]), x[i]))
	}
	if n1 > 0 {
		dot += float64(sdotKernel16(x[:n1], y, stride))
	}
	return float32(dot)
}

// sdotKernel16 is sdot_microk_haswell-2.c's sdot_kernel_16 (len(x) a
// multiple of 32): element i+8k+l of each block of 32 goes into lane l of
// accumulator k with vfmadd231ps; then each accumulator's upper four lanes
// are added to its lower four (vextractf128, vaddps), the four
// accumulators are added as (a0+a1)+(a2+a3), and two vhaddps finish.
func sdotKernel16[T float32 | float64](x []float32, y []T, stride int) float32 {
	var acc [4][8]float32
	for i := 0; i < len(x); i += 32 {
		for k := range acc {
			for l := range acc[k] {
				j := i + 8*k + l
				acc[k][l] = fmaf(float32(y[j*stride]), x[j], acc[k][l])
			}
		}
	}
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

// dctKaldi sets y[r] = Σ_c a[r·cols+c]·x[c] for the row-major rows×cols
// DCT matrix the way the golden MFCCs were computed by Kaldi's
// AddMatVec(1.0, dct_matrix_, kNoTrans, mel_energies, 0.0), which is
// cblas_sgemv(CblasRowMajor, CblasNoTrans, …), which OpenBLAS runs as its
// transposed column-major kernel sgemv_t (each output a dot product of one
// row with x). The order is that of sgemv_t_4.c's portable C kernel
// sgemv_kernel_4x4, compiled without fused multiply-adds: the products of
// each block of four columns are rounded to float and summed left to
// right, ((p0+p1)+p2)+p3, and each block's sum is added to a float running
// sum; the last cols&3 products are summed the same way and added last.
//
// This is a measured choice, not a derivation: with Kaldi's own log mel
// energies (kaldi-golden's fbank23.ark) as input, it reproduces 65 % of
// the cepstra of kaldi-golden's mfcc13 to all 7 printed digits, against
// 31 % for the order of OpenBLAS's AVX2 micro-kernels
// (sgemv_t_microk_haswell-4.c), 27 % for a double sum and at most 38 % for
// the other orders tried (sequential, pairwise, strided lanes, sgemv_n's
// column blocks, with and without FMA). The exact order Kaldi's OpenBLAS
// used is not known (the manifests do not record the CPU), so MFCCs are not
// yet bit-identical even where every log mel energy is.
func dctKaldi(a []float32, rows, cols int, x, y []float32) {
	y = y[:rows]
	x = x[:cols]
	nb := cols &^ 3
	for r := range y {
		row := a[r*cols : (r+1)*cols]
		var sum float32
		for i := 0; i < nb; i += 4 {
			sum += ((mul32(row[i], x[i]) + mul32(row[i+1], x[i+1])) + mul32(row[i+2], x[i+2])) + mul32(row[i+3], x[i+3])
		}
		if nb < cols {
			t := mul32(row[nb], x[nb])
			for i := nb + 1; i < cols; i++ {
				t += mul32(row[i], x[i])
			}
			sum += t
		}
		y[r] = sum
	}
}
