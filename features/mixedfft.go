package features

import "math"

// mixedRadixFFT is a real-input FFT for even lengths that are not powers of
// two (--round-to-power-of-two=false), performing the same float operations
// as Kaldi's RealFft: ComplexFft (mixed-radix, prime factors in increasing
// order, twiddles by repeated complex multiplication) on the frame viewed as
// n/2 complex values, then the same untangling as the split-radix path.
type mixedRadixFFT struct {
	n       int
	factors []int
	tmp     []float32
	rootRe  float32 // e^{−2πi/n}
	rootIm  float32
}

func newMixedRadixFFT(n int) *mixedRadixFFT {
	m := n / 2
	var f []int
	for p := 2; m > 1; {
		for m%p == 0 {
			f = append(f, p)
			m /= p
		}
		if p == 2 {
			p = 3
		} else {
			p += 2
		}
	}
	x := float32(-2 * math.Pi / float64(n))
	return &mixedRadixFFT{n: n, factors: f, tmp: make([]float32, max(n, 2*n)), rootRe: cosf(x), rootIm: sinf(x)}
}

// complexMul is Kaldi's ComplexMul: b *= a.
func complexMul(aRe, aIm float32, bRe, bIm *float32) {
	tr := float32(*bRe*aRe) - float32(*bIm*aIm)
	*bIm = float32(*bRe*aIm) + float32(*bIm*aRe)
	*bRe = tr
}

// complexAddProduct is Kaldi's ComplexAddProduct: c += a·b.
func complexAddProduct(aRe, aIm, bRe, bIm float32, cRe, cIm *float32) {
	*cRe += float32(bRe*aRe) - float32(bIm*aIm)
	*cIm += float32(bRe*aIm) + float32(bIm*aRe)
}

// recursive is Kaldi's ComplexFftRecursive (forward) on nffts consecutive
// complex sequences of length n (interleaved re, im).
func (f *mixedRadixFFT) recursive(data []float32, nffts, n int, factors []int) {
	if len(factors) == 0 {
		return
	}
	p := factors[0]
	q := n / p
	if q > 1 {
		// Rearrange b[pQ+q] = a[qP+p], real and imaginary parts separately.
		tmp := f.tmp[:n]
		for b := 0; b < nffts; b++ {
			blk := data[b*2*n : (b+1)*2*n]
			for off := 0; off < 2; off++ {
				for pp := 0; pp < p; pp++ {
					for qq := 0; qq < q; qq++ {
						tmp[pp*q+qq] = blk[2*(qq*p+pp)+off]
					}
				}
				for i := 0; i < n; i++ {
					blk[2*i+off] = tmp[i]
				}
			}
		}
	}
	f.recursive(data, nffts*p, q, factors[1:])
	x := float32(-2 * math.Pi / float64(n))
	rootNRe, rootNIm := cosf(x), sinf(x)
	x = float32(-2 * math.Pi / float64(p))
	rootPRe, rootPIm := cosf(x), sinf(x)
	tempA := f.tmp[:2*p]
	for b := 0; b < nffts; b++ {
		blk := data[b*2*n : (b+1)*2*n]
		qdRe, qdIm := float32(1), float32(0)
		for qd := 0; qd < q; qd++ {
			pqRe, pqIm := qdRe, qdIm
			for pd := 0; pd < p; pd++ {
				tempA[2*pd] = blk[2*qd]
				tempA[2*pd+1] = blk[2*qd+1]
				complexAddProduct(pqRe, pqIm, blk[2*(qd+q)], blk[2*(qd+q)+1], &tempA[2*pd], &tempA[2*pd+1])
				if p > 2 {
					ppRe, ppIm := pqRe, pqIm
					for pp := 2; pp < p; pp++ {
						complexMul(pqRe, pqIm, &ppRe, &ppIm)
						idx := pp*q + qd
						complexAddProduct(ppRe, ppIm, blk[2*idx], blk[2*idx+1], &tempA[2*pd], &tempA[2*pd+1])
					}
				}
				if pd != p-1 {
					complexMul(rootPRe, rootPIm, &pqRe, &pqIm)
				}
			}
			for pd := 0; pd < p; pd++ {
				blk[2*(pd*q+qd)] = tempA[2*pd]
				blk[2*(pd*q+qd)+1] = tempA[2*pd+1]
			}
			complexMul(rootNRe, rootNIm, &qdRe, &qdIm)
		}
	}
}

// power overwrites data (the frame, length n) with Kaldi's RealFft and
// writes the power spectrum, k = 0 … n/2, into out.
func (f *mixedRadixFFT) power(data []float32, out []float64) {
	f.recursive(data[:f.n], 1, f.n/2, f.factors)
	realFFTUntangle(data[:f.n], f.rootRe, f.rootIm)
	powerFromPacked(data[:f.n], out)
}
