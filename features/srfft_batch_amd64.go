//go:build amd64 && !purego

package features

//go:noescape
func srTwiddleBatchAVX(r, i, c, spc, smc *float32, n int)

//go:noescape
func srEighthBatchAVX(r1, i1, r2, i2 *float32, k *[2]float32)

//go:noescape
func srUntanglePowerBatchAVX(re, im *float32, rev *int32, kN *float32, out *float32, n2 int, half *[2]float32)

func haveBatchKernels() bool { return useAVX }

// The wrappers check the lengths the kernels rely on; the kernels run only
// where haveBatchKernels is true.

//go:noescape
func srHeadBatchAVX(xr, xi *float32, m2, m4 int)

//go:noescape
func srFFT4BatchAVX(xr, xi *float32)

//go:noescape
func srFFT2BatchAVX(xr, xi *float32)

//go:noescape
func srFFT8BatchAVX(xr, xi *float32, k *[2]float32)

// srHeadBatch is steps 1 and 2 of a 2·m2-point transform.
func srHeadBatch(xr, xi []float32, m2, m4 int) {
	n := 2 * m2 * batchLanes
	_, _ = xr[n-1], xi[n-1]
	if m2+2*m4 > 2*m2 {
		panic("features: bad split-radix step")
	}
	srHeadBatchAVX(&xr[0], &xi[0], m2, m4)
}

func srFFT4Batch(xr, xi []float32) {
	_, _ = xr[4*batchLanes-1], xi[4*batchLanes-1]
	srFFT4BatchAVX(&xr[0], &xi[0])
}

func srFFT8Batch(xr, xi []float32) {
	_, _ = xr[8*batchLanes-1], xi[8*batchLanes-1]
	srFFT8BatchAVX(&xr[0], &xi[0], &sqhalfPair)
}

func srFFT2Batch(xr, xi []float32) {
	_, _ = xr[2*batchLanes-1], xi[2*batchLanes-1]
	srFFT2BatchAVX(&xr[0], &xi[0])
}

func srTwiddleBatch(r, i, c, spc, smc []float32) {
	n := len(c)
	if n == 0 {
		return
	}
	r, i, spc, smc = r[:n*batchLanes], i[:n*batchLanes], spc[:n], smc[:n]
	srTwiddleBatchAVX(&r[0], &i[0], &c[0], &spc[0], &smc[0], n)
}

func srEighthBatch(r1, i1, r2, i2 []float32) {
	_, _, _, _ = r1[batchLanes-1], i1[batchLanes-1], r2[batchLanes-1], i2[batchLanes-1]
	srEighthBatchAVX(&r1[0], &i1[0], &r2[0], &i2[0], &sqhalfPair)
}

func srUntanglePowerBatch(re, im []float32, rev []int32, kN []float32, pow []float32, n2 int) {
	_, _, _ = re[n2*batchLanes-1], im[n2*batchLanes-1], pow[(n2+1)*batchLanes-1]
	_, _ = rev[n2-1], kN[2*(n2/2)+1]
	srUntanglePowerBatchAVX(&re[0], &im[0], &rev[0], &kN[0], &pow[0], n2, &halfPair)
}

//go:noescape
func srLoadBatchAVX(frames *[batchLanes]*float32, re, im *float32, cn int)

//go:noescape
func srStoreBatchAVX(pow *float32, outs *[batchLanes]*float64, nk int)

// srLoadBatch transposes eight frames (each ≥ 2·cn long, cn a multiple of 4)
// into element-major re and im.
func srLoadBatch(frames *[batchLanes][]float32, re, im []float32, cn int) {
	var p [batchLanes]*float32
	for l, f := range frames {
		p[l] = &f[:2*cn][0]
	}
	_, _ = re[cn*batchLanes-1], im[cn*batchLanes-1]
	srLoadBatchAVX(&p, &re[0], &im[0], cn)
}

// srStoreBatch transposes bins 0 … nk−1 (nk a multiple of 8) of the
// element-major pow into the eight outputs, widened to float64.
func srStoreBatch(pow []float32, outs *[batchLanes][]float64, nk int) {
	var p [batchLanes]*float64
	for l, o := range outs {
		p[l] = &o[:nk][0]
	}
	_ = pow[nk*batchLanes-1]
	srStoreBatchAVX(&pow[0], &p, nk)
}

//go:noescape
func melBatchAVX(pow *float32, w *float64, n int, out *[batchLanes]float64)

// melBatch is out[l] = Σ_j w[j]·pow[j·8+l] in double (pow element-major,
// len(w) elements).
func melBatch(pow []float32, w []float64, out *[batchLanes]float64) {
	if len(w) == 0 {
		*out = [batchLanes]float64{}
		return
	}
	_ = pow[len(w)*batchLanes-1]
	melBatchAVX(&pow[0], &w[0], len(w), out)
}
