package features

import (
	"math"
	"math/bits"
)

// splitRadixFFT is a real-input FFT that performs the same float operations
// in the same order as Kaldi's SplitRadixRealFft<float> (Malvar's split-radix
// complex FFT of length n/2, then the real-FFT untangling with the twiddle
// e^{−2πik/n} built by repeated complex multiplication), followed by Kaldi's
// ComputePowerSpectrum. Matching Kaldi's rounding matters where a mel bin's
// energy is many orders of magnitude below the frame's: there Kaldi's float
// FFT noise dominates the bin, and an exact (float64) FFT would differ from
// Kaldi by more than the acceptance tolerance.
//
// The permutation is applied with a precomputed bit-reversal table (a
// permutation moves values without rounding, so any order gives Kaldi's
// result). Nothing allocates after construction.
type splitRadixFFT struct {
	n      int // real length
	cn     int // complex length n/2
	logn   int // log2(cn)
	tab    [][]float32
	ptab   [][]float32 // tab padded to m/4 entries per array (see newSplitRadixFFT)
	rev    []int32
	re, im []float32
	rootRe float32 // e^{−2πi/n}
	rootIm float32
	// kN[2k], kN[2k+1] is e^{−2πik/n} as Kaldi computes it: by k
	// repeated float complex multiplications by root (data-independent,
	// so computed once).
	kN []float32
}

func newSplitRadixFFT(n int) *splitRadixFFT {
	cn := n / 2
	logn := bits.TrailingZeros(uint(cn))
	s := &splitRadixFFT{n: n, cn: cn, logn: logn, re: make([]float32, cn), im: make([]float32, cn)}
	s.rev = make([]int32, cn)
	for i := range s.rev {
		if logn > 0 {
			s.rev[i] = int32(bits.Reverse32(uint32(i)) >> (32 - logn))
		}
	}
	// Kaldi's ComputeTables: for each length m = 2^i, i ≥ 4, the cos and
	// (−(s+c), s−c) of n·2π/m and 3n·2π/m, n = 1 … m/4−1 except m/8; angles
	// and values in float.
	if logn >= 4 {
		s.tab = make([][]float32, logn-3)
		s.ptab = make([][]float32, logn-3)
		for i := logn; i >= 4; i-- {
			m := 1 << i
			m4, m8 := m/4, m/8
			nel := m4 - 2
			t := make([]float32, 6*nel)
			cnT, spcn, smcn := t[0:nel], t[nel:2*nel], t[2*nel:3*nel]
			c3n, spc3n, smc3n := t[3*nel:4*nel], t[4*nel:5*nel], t[5*nel:6*nel]
			k := 0
			for j := 1; j < m4; j++ {
				if j == m8 {
					continue
				}
				ang := float32(float64(j) * 2 * math.Pi / float64(m))
				c, sn := cosf(ang), sinf(ang)
				cnT[k], spcn[k], smcn[k] = c, -(sn + c), sn-c
				ang = float32(3 * float64(j) * 2 * math.Pi / float64(m))
				c, sn = cosf(ang), sinf(ang)
				c3n[k], spc3n[k], smc3n[k] = c, -(sn + c), sn-c
				k++
			}
			s.tab[i-4] = t
			// The same entries laid out by n = 0 … m4−1 with zeros at
			// n = 0 and n = m8, so the AVX kernel can sweep the whole
			// quarter (those two lanes are restored afterwards).
			p := make([]float32, 6*m4)
			for a := 0; a < 6; a++ {
				src, dst := t[a*nel:(a+1)*nel], p[a*m4:(a+1)*m4]
				copy(dst[1:m8], src[:m8-1])
				copy(dst[m8+1:], src[m8-1:])
			}
			s.ptab[i-4] = p
		}
	}
	x := float32(-2 * math.Pi / float64(n)) // ComplexImExp(M_2PI/N·(−1))
	s.rootRe, s.rootIm = cosf(x), sinf(x)
	s.kN = make([]float32, 2*(cn/2+1))
	kRe, kIm := float32(1), float32(0)
	s.kN[0] = 1
	for k := 1; 2*k <= cn; k++ {
		tr := float32(kRe*s.rootRe) - float32(kIm*s.rootIm)
		kIm = float32(kRe*s.rootIm) + float32(kIm*s.rootRe)
		kRe = tr
		s.kN[2*k], s.kN[2*k+1] = kRe, kIm
	}
	return s
}

// sqhalf is Kaldi's float M_SQRT1_2.
const sqhalf = float32(math.Sqrt2 / 2)

// recursive is Kaldi's SplitRadixComplexFft::ComputeRecursive (in-place,
// output in bit-reversed order). The float32 conversions around products
// keep the compiler from fusing them into FMA instructions, which Kaldi's
// build does not use.
func (s *splitRadixFFT) recursive(xr, xi []float32, logn int) {
	switch logn {
	case 0:
		return
	case 1:
		fft2(xr, xi)
		return
	case 2:
		fft4(xr, xi)
		return
	case 3:
		fft8(xr, xi)
		return
	}
	m := 1 << logn
	m2, m4, m8 := m/2, m/4, m/8
	// Step 1: length-2 butterflies between the halves.
	srButterfly(xr[:m2], xr[m2:m])
	srButterfly(xi[:m2], xi[m2:m])
	// Step 2: multiply the odd quarter by −i.
	r1, r2 := xr[m2:m2+m4], xr[m2+m4:m]
	i1, i2 := xi[m2:m2+m4], xi[m2+m4:m]
	srStep2(r1, i1, r2, i2)
	// Steps 3 & 4: twiddles e^{∓2πin/m} and e^{∓6πin/m}, n = 1 … m/4−1;
	// n = m/8 is the special case e^{∓iπ/4} (no table entry).
	if useAVX && m4 >= 8 {
		// Sweep n = 0 … m4−1 with the padded tables, then restore n = 0
		// (untouched in Kaldi) and redo n = m8 with its own formula.
		p := s.ptab[logn-4]
		r10, i10, r20, i20 := r1[0], i1[0], r2[0], i2[0]
		ra, ia, rb, ib := r1[m8], i1[m8], r2[m8], i2[m8]
		srTwiddleAVX(&r1[0], &i1[0], &p[0], &p[m4], &p[2*m4], m4)
		srTwiddleAVX(&r2[0], &i2[0], &p[3*m4], &p[4*m4], &p[5*m4], m4)
		r1[0], i1[0], r2[0], i2[0] = r10, i10, r20, i20
		r1[m8] = sqhalf * float32(ra+ia)
		i1[m8] = sqhalf * float32(ia-ra)
		r2[m8] = sqhalf * float32(ib-rb)
		i2[m8] = -sqhalf * float32(rb+ib)
	} else {
		s.twiddleScalar(r1, i1, r2, i2, logn)
	}
	s.recursive(xr[:m2], xi[:m2], logn-1)
	s.recursive(xr[m2:m2+m4], xi[m2:m2+m4], logn-2)
	s.recursive(xr[m2+m4:m], xi[m2+m4:m], logn-2)
}

// twiddleScalar is steps 3 and 4 entry by entry, as Kaldi's loop.
func (s *splitRadixFFT) twiddleScalar(r1, i1, r2, i2 []float32, logn int) {
	m := 1 << logn
	m4, m8 := m/4, m/8
	if logn >= 4 {
		t := s.tab[logn-4]
		nel := m4 - 2
		cnT, spcn, smcn := t[0:nel], t[nel:2*nel], t[2*nel:3*nel]
		c3n, spc3n, smc3n := t[3*nel:4*nel], t[4*nel:5*nel], t[5*nel:6*nel]
		// n = 1 … m8−1 use table entries 0 … m8−2; n = m8+1 … m4−1 use
		// m8−1 … nel−1.
		lo, hi := m8-1, nel
		srTwiddle(r1[1:m8], i1[1:m8], cnT[:lo], spcn[:lo], smcn[:lo])
		srTwiddle(r2[1:m8], i2[1:m8], c3n[:lo], spc3n[:lo], smc3n[:lo])
		srTwiddle(r1[m8+1:m4], i1[m8+1:m4], cnT[lo:hi], spcn[lo:hi], smcn[lo:hi])
		srTwiddle(r2[m8+1:m4], i2[m8+1:m4], c3n[lo:hi], spc3n[lo:hi], smc3n[lo:hi])
	}
	{
		j := m8
		a, b := r1[j], i1[j]
		r1[j] = sqhalf * float32(a+b)
		i1[j] = sqhalf * float32(b-a)
		a, b = r2[j], i2[j]
		r2[j] = sqhalf * float32(b-a)
		i2[j] = -sqhalf * float32(a+b)
	}
}

// power overwrites data (the frame, length n) with Kaldi's real FFT and
// writes the power spectrum |X[k]|², k = 0 … n/2, into out, in float.
func (s *splitRadixFFT) power(data []float32, out []float64) {
	cn, n := s.cn, s.n
	data = data[:n]
	re, im := s.re, s.im
	// Deinterleave, transform (output in bit-reversed order), then
	// interleave back through the bit-reversal table.
	for i := 0; i < cn; i++ {
		re[i], im[i] = data[2*i], data[2*i+1]
	}
	s.recursive(re, im, s.logn)
	s.untanglePower(out)
}

// untanglePower is realFFTUntangle and powerFromPacked fused, reading the
// complex FFT through the bit-reversal table instead of permuting it first;
// every value sees the same float operations as in Kaldi.
func (s *splitRadixFFT) untanglePower(out []float64) {
	n2 := s.cn
	re, im, rev := s.re[:n2], s.im[:n2], s.rev[:n2]
	out = out[:n2+1]
	tw := s.kN[:2*(n2/2+1)]
	for k := 1; 2*k <= n2; k++ {
		kRe, kIm := tw[2*k], tw[2*k+1]
		j, jd := rev[k], rev[n2-k]
		aRe, aIm, bRe, bIm := re[j], im[j], re[jd], im[jd]
		// Kaldi multiplies by the double 0.5 and stores to float: halving
		// is exact, so the float product rounds the same way.
		ckRe := float32(0.5 * (aRe + bRe))
		ckIm := float32(0.5 * (aIm - bIm))
		dkRe := float32(0.5 * (aIm + bIm))
		dkIm := float32(-0.5 * (aRe - bRe))
		xr := ckRe + (float32(kRe*dkRe) - float32(kIm*dkIm))
		xi := ckIm + (float32(kRe*dkIm) + float32(kIm*dkRe))
		out[k] = float64(float32(xr*xr) + float32(xi*xi))
		if kd := n2 - k; kd != k {
			yr := ckRe + (float32(-kRe*dkRe) - float32(kIm*-dkIm))
			yi := -ckIm + (float32(-kRe*-dkIm) + float32(kIm*dkRe))
			out[kd] = float64(float32(yr*yr) + float32(yi*yi))
		}
	}
	zeroth, n2th := re[0]+im[0], re[0]-im[0]
	out[0] = float64(zeroth * zeroth)
	out[n2] = float64(n2th * n2th)
}

// realFFTUntangle turns the complex FFT of the frame viewed as n/2 complex
// values into the first half of the real FFT, packed as Kaldi packs it
// ([re 0, re n/2, re 1, im 1, …]), with the float operations of Kaldi's
// RealFft / SplitRadixRealFft::Compute (forward).
func realFFTUntangle(data []float32, rootRe, rootIm float32) {
	n := len(data)
	n2 := n / 2
	kRe, kIm := float32(1), float32(0)
	for k := 1; 2*k <= n2; k++ {
		// ComplexMul(root, &kN)
		tr := float32(kRe*rootRe) - float32(kIm*rootIm)
		kIm = float32(kRe*rootIm) + float32(kIm*rootRe)
		kRe = tr
		ckRe := float32(0.5 * float64(data[2*k]+data[n-2*k]))
		ckIm := float32(0.5 * float64(data[2*k+1]-data[n-2*k+1]))
		dkRe := float32(0.5 * float64(data[2*k+1]+data[n-2*k+1]))
		dkIm := float32(-0.5 * float64(data[2*k]-data[n-2*k]))
		// A_k = C_k + kN·D_k (ComplexAddProduct)
		data[2*k] = ckRe + (float32(kRe*dkRe) - float32(kIm*dkIm))
		data[2*k+1] = ckIm + (float32(kRe*dkIm) + float32(kIm*dkRe))
		if kd := n2 - k; kd != k {
			bRe, bIm := -kRe, kIm
			aRe, aIm := dkRe, -dkIm
			data[2*kd] = ckRe + (float32(bRe*aRe) - float32(bIm*aIm))
			data[2*kd+1] = -ckIm + (float32(bRe*aIm) + float32(bIm*aRe))
		}
	}
	zeroth, n2th := data[0]+data[1], data[0]-data[1]
	data[0], data[1] = zeroth, n2th
}

// powerFromPacked is Kaldi's ComputePowerSpectrum on a packed real FFT.
func powerFromPacked(data []float32, out []float64) {
	cn := len(data) / 2
	out = out[:cn+1]
	out[0] = float64(data[0] * data[0])
	out[cn] = float64(data[1] * data[1])
	for i := 1; i < cn; i++ {
		r, m := data[2*i], data[2*i+1]
		out[i] = float64(float32(r*r) + float32(m*m))
	}
}

// srButterflyGo is step 1: a, b = a+b, a−b.
func srButterflyGo(a, b []float32) {
	b = b[:len(a)]
	for j := range a {
		a[j], b[j] = a[j]+b[j], a[j]-b[j]
	}
}

// srStep2Go is step 2: (r2, i2) times −i, combined with (r1, i1).
func srStep2Go(r1, i1, r2, i2 []float32) {
	n := len(r1)
	i1, r2, i2 = i1[:n], r2[:n], i2[:n]
	for j := range r1 {
		t1 := r1[j] + i2[j]
		t2 := i1[j] + r2[j]
		i1[j] = i1[j] - r2[j]
		r2[j] = r1[j] - i2[j]
		r1[j] = t1
		i2[j] = t2
	}
}

// srTwiddleGo is steps 3 and 4 for one run of table entries: Malvar's
// three-multiplication complex rotation, t2 = c·(r+i), r' = smc·i + t2,
// i' = spc·r + t2. The conversions keep the compiler from fusing into FMA.
func srTwiddleGo(r, i, c, spc, smc []float32) {
	n := len(r)
	i, c, spc, smc = i[:n], c[:n], spc[:n], smc[:n]
	for k := range r {
		t2 := float32(c[k] * float32(r[k]+i[k]))
		t1 := float32(spc[k]*r[k]) + t2
		r[k] = float32(smc[k]*i[k]) + t2
		i[k] = t1
	}
}

// fft2, fft4 and fft8 are the recursion's smallest cases written out (the
// same float operations as the general step, without the calls).
func fft2(xr, xi []float32) {
	xr, xi = xr[:2], xi[:2]
	xr[0], xr[1] = xr[0]+xr[1], xr[0]-xr[1]
	xi[0], xi[1] = xi[0]+xi[1], xi[0]-xi[1]
}

func fft4(xr, xi []float32) {
	xr, xi = xr[:4], xi[:4]
	xr[0], xr[2] = xr[0]+xr[2], xr[0]-xr[2]
	xi[0], xi[2] = xi[0]+xi[2], xi[0]-xi[2]
	xr[1], xr[3] = xr[1]+xr[3], xr[1]-xr[3]
	xi[1], xi[3] = xi[1]+xi[3], xi[1]-xi[3]
	xr[0], xr[1] = xr[0]+xr[1], xr[0]-xr[1]
	xi[0], xi[1] = xi[0]+xi[1], xi[0]-xi[1]
	r2, i2, r3, i3 := xr[2], xi[2], xr[3], xi[3]
	xr[2], xi[3] = r2+i3, i2+r3
	xi[2] = i2 - r3
	xr[3] = r2 - i3
}

func fft8(xr, xi []float32) {
	xr, xi = xr[:8], xi[:8]
	for j := 0; j < 4; j++ {
		xr[j], xr[j+4] = xr[j]+xr[j+4], xr[j]-xr[j+4]
		xi[j], xi[j+4] = xi[j]+xi[j+4], xi[j]-xi[j+4]
	}
	for j := 4; j < 6; j++ {
		r1, i1, r2, i2 := xr[j], xi[j], xr[j+2], xi[j+2]
		xr[j], xi[j], xr[j+2], xi[j+2] = r1+i2, i1-r2, r1-i2, i1+r2
	}
	a, b := xr[5], xi[5]
	xr[5] = sqhalf * float32(a+b)
	xi[5] = sqhalf * float32(b-a)
	a, b = xr[7], xi[7]
	xr[7] = sqhalf * float32(b-a)
	xi[7] = -sqhalf * float32(a+b)
	fft4(xr[:4], xi[:4])
	fft2(xr[4:6], xi[4:6])
	fft2(xr[6:8], xi[6:8])
}
