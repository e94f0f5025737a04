package features

// Kaldi's float vector products go through cblas: MelBanks::Compute's
// VecVec is cblas_sdot (see MelBanks.Compute and blas_test.go's
// sdotKaldi), MfccComputer's DCT (AddMatVec) is cblas_sgemv. The
// kaldi-golden and kaldi-mini archives were made by Kaldi linked with
// Debian 12's OpenBLAS 0.3.21 (../shared/kaldi-golden/MANIFEST.md), so
// reproducing their float32 values bit for bit means adding the products
// in the order those OpenBLAS kernels add them and rounding where they
// round. Which kernels ran depends on the CPU OpenBLAS detected, which the
// manifests do not record; the order below is the one that reproduces the
// archives best of those measured (see dctKaldi).

// mul32 is a product rounded to float (the conversion keeps the compiler
// from fusing it into a following addition).
func mul32(a, b float32) float32 { return float32(a * b) }

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
