package features

// batchLanes is how many frames the batched FFT transforms at once: one
// frame per lane of a 256-bit register.
const batchLanes = 8

// sqhalfPair and halfPair are constants the batch kernels broadcast.
var (
	sqhalfPair = [2]float32{sqhalf, -sqhalf}
	halfPair   = [2]float32{0.5, -0.5}
)

// splitRadixBatch runs splitRadixFFT.power on eight frames at once. The
// frames are transposed into element-major order (eight floats per complex
// element, one per frame), and every step of the split-radix recursion
// becomes the same step on 8-wide vectors: lane l sees exactly the float
// operations the one-frame code performs on frame l, so each spectrum is
// bit-identical to splitRadixFFT.power's (TestSplitRadixBatchMatches), while
// the small sub-transforms at the leaves of the recursion, which the one-frame
// code runs in scalar, use the full vector width.
type splitRadixBatch struct {
	s      *splitRadixFFT
	re, im []float32 // cn elements × 8 lanes
	pow    []float32 // (cn+1) elements × 8 lanes
	// Lanes without a frame read zeros and write to spare.
	zeros  []float32
	spare  []float64
	frames [batchLanes][]float32
	outs   [batchLanes][]float64
}

// newSplitRadixBatch returns nil where the vector kernels are unavailable.
func newSplitRadixBatch(s *splitRadixFFT) *splitRadixBatch {
	if !haveBatchKernels() || s.cn < 2 {
		return nil
	}
	return &splitRadixBatch{
		s:     s,
		re:    make([]float32, s.cn*batchLanes),
		im:    make([]float32, s.cn*batchLanes),
		pow:   make([]float32, (s.cn+1)*batchLanes),
		zeros: make([]float32, s.n),
		spare: make([]float64, s.cn+1),
	}
}

// power writes the power spectrum of frames[l] (length n) into outs[l]
// (length ≥ n/2+1), for up to eight frames; missing lanes transform zeros.
func (b *splitRadixBatch) power(frames [][]float32, outs [][]float64) {
	const L = batchLanes
	cn := b.s.cn
	pow := b.powerPacked(frames)
	for l := range b.outs {
		if l < len(frames) {
			b.outs[l] = outs[l][:cn+1]
		} else {
			b.outs[l] = b.spare
		}
	}
	if cn%8 == 0 {
		srStoreBatch(pow, &b.outs, cn)
	} else {
		for l, out := range b.outs {
			for k := 0; k < cn; k++ {
				out[k] = float64(pow[k*L+l])
			}
		}
	}
	for l, out := range b.outs[:len(frames)] {
		out[cn] = float64(pow[cn*L+l])
	}
}

// powerPacked is power with the spectra left element-major: bin k of frame
// l at [k·8+l], k = 0 … n/2. The slice is reused by the next call.
func (b *splitRadixBatch) powerPacked(frames [][]float32) []float32 {
	const L = batchLanes
	cn := b.s.cn
	for l := range b.frames {
		if l < len(frames) {
			b.frames[l] = frames[l][:2*cn]
		} else {
			b.frames[l] = b.zeros
		}
	}
	re, im := b.re[:cn*L], b.im[:cn*L]
	if cn%8 == 0 {
		srLoadBatch(&b.frames, re, im, cn)
	} else {
		for l, f := range b.frames {
			for i := 0; i < cn; i++ {
				re[i*L+l], im[i*L+l] = f[2*i], f[2*i+1]
			}
		}
	}
	b.recursive(re, im, b.s.logn)
	pow := b.pow[:(cn+1)*L]
	srUntanglePowerBatch(re, im, b.s.rev, b.s.kN, pow, cn)
	for l := 0; l < L; l++ {
		zeroth, n2th := re[l]+im[l], re[l]-im[l]
		pow[l] = zeroth * zeroth
		pow[cn*L+l] = n2th * n2th
	}
	return pow
}

// recursive is splitRadixFFT.recursive on element-major data, each
// operation on whole elements; the 8-, 4- and 2-point sub-transforms (the
// leaves, most of the calls) are one kernel each.
func (b *splitRadixBatch) recursive(xr, xi []float32, logn int) {
	const L = batchLanes
	switch logn {
	case 0:
		return
	case 1:
		srFFT2Batch(xr, xi)
		return
	case 2:
		srFFT4Batch(xr, xi)
		return
	case 3:
		srFFT8Batch(xr, xi)
		return
	}
	m := 1 << logn
	m2, m4, m8 := m/2, m/4, m/8
	srHeadBatch(xr[:m*L], xi[:m*L], m2, m4)
	r1, i1 := xr[m2*L:(m2+m4)*L], xi[m2*L:(m2+m4)*L]
	r2, i2 := xr[(m2+m4)*L:m*L], xi[(m2+m4)*L:m*L]
	if logn >= 4 {
		// n = 1 … m8−1 use table entries 0 … m8−2, n = m8+1 … m4−1 the rest.
		t := b.s.tab[logn-4]
		nel := m4 - 2
		cnT, spcn, smcn := t[0:nel], t[nel:2*nel], t[2*nel:3*nel]
		c3n, spc3n, smc3n := t[3*nel:4*nel], t[4*nel:5*nel], t[5*nel:6*nel]
		lo := m8 - 1
		srTwiddleBatch(r1[L:m8*L], i1[L:m8*L], cnT[:lo], spcn[:lo], smcn[:lo])
		srTwiddleBatch(r2[L:m8*L], i2[L:m8*L], c3n[:lo], spc3n[:lo], smc3n[:lo])
		srTwiddleBatch(r1[(m8+1)*L:], i1[(m8+1)*L:], cnT[lo:], spcn[lo:], smcn[lo:])
		srTwiddleBatch(r2[(m8+1)*L:], i2[(m8+1)*L:], c3n[lo:], spc3n[lo:], smc3n[lo:])
	}
	{
		srEighthBatch(r1[m8*L:(m8+1)*L], i1[m8*L:(m8+1)*L], r2[m8*L:(m8+1)*L], i2[m8*L:(m8+1)*L])
	}
	b.recursive(xr[:m2*L], xi[:m2*L], logn-1)
	b.recursive(r1, i1, logn-2)
	b.recursive(r2, i2, logn-2)
}
