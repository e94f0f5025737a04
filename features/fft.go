package features

import (
	"math"
	"math/bits"

	"gonum.org/v1/gonum/dsp/fourier"
)

// powerSpectrum computes |X[k]|², k = 0 … n/2, of the unnormalised DFT
// X[k] = Σ_j x[j]·e^{−2πijk/n} of a real frame of even length n — what Kaldi
// gets from its split-radix real FFT followed by ComputePowerSpectrum.
//
// For power-of-two n it packs the real frame into a complex sequence of
// length m = n/2, z[j] = x[2j] + i·x[2j+1], takes one radix-2 complex FFT
// (bit-reversed load, then log2(m) butterfly stages with precomputed
// twiddles), and untangles the even and odd halves:
//
//	E[k] = (Z[k] + conj Z[m−k])/2,  O[k] = (Z[k] − conj Z[m−k])/(2i),
//	X[k] = E[k] + e^{−2πik/n}·O[k].
//
// Other even n (--round-to-power-of-two=false) go through gonum's
// mixed-radix real FFT. Nothing allocates after construction.
type powerSpectrum struct {
	n, m   int
	rev    []int32   // bit reversal of 0 … m−1
	tw     []float64 // stage twiddles: for L = 8, 16, …, m: cos, sin pairs of e^{−2πij/L}, j < L/2
	post   []float64 // e^{−2πik/n}, k ≤ m/2, as cos, sin pairs
	re, im []float64

	kaldi *splitRadixFFT   // Kaldi's float split-radix (used for power-of-two n)
	batch *splitRadixBatch // the same, eight frames at a time (nil: unavailable)
	mixed *mixedRadixFFT   // Kaldi's float mixed-radix (other even n)

	gonum  *fourier.FFT // non-power-of-two lengths
	seq    []float64
	coeffs []complex128
}

// useKaldiFFT selects Kaldi's float split-radix for power-of-two sizes.
var useKaldiFFT = true

func newPowerSpectrum(n int) *powerSpectrum {
	p := &powerSpectrum{n: n, m: n / 2}
	if n%2 == 0 && n&(n-1) != 0 && useKaldiFFT {
		p.mixed = newMixedRadixFFT(n)
		return p
	}
	if n < 8 || n&(n-1) != 0 {
		p.gonum = fourier.NewFFT(n)
		p.seq = make([]float64, n)
		p.coeffs = make([]complex128, n/2+1)
		return p
	}
	m := p.m
	logm := bits.TrailingZeros(uint(m))
	p.rev = make([]int32, m)
	for i := range p.rev {
		p.rev[i] = int32(bits.Reverse32(uint32(i)) >> (32 - logm))
	}
	for L := 8; L <= m; L <<= 1 {
		for j := 0; j < L/2; j++ {
			s, c := math.Sincos(-2 * math.Pi * float64(j) / float64(L))
			p.tw = append(p.tw, c, s)
		}
	}
	for k := 0; k <= m/2; k++ {
		s, c := math.Sincos(-2 * math.Pi * float64(k) / float64(n))
		p.post = append(p.post, c, s)
	}
	p.re = make([]float64, m)
	p.im = make([]float64, m)
	if useKaldiFFT {
		p.kaldi = newSplitRadixFFT(n)
		p.batch = newSplitRadixBatch(p.kaldi)
	}
	return p
}

// batchLen is how many frames computeBatch transforms together with
// vector kernels (1: frame by frame).
func (p *powerSpectrum) batchLen() int {
	if p.batch != nil {
		return batchLanes
	}
	return 1
}

// computeBatch is compute on up to batchLen frames: outs[l] gets the power
// spectrum of frames[l], bit-identical to compute's.
func (p *powerSpectrum) computeBatch(frames [][]float32, outs [][]float64) {
	if p.batch != nil && len(frames) > 1 {
		p.batch.power(frames, outs)
		return
	}
	for l, f := range frames {
		p.compute(f, outs[l])
	}
}

// computeBatchPacked is computeBatch for the batched FFT with the spectra
// left element-major (bin k of frame l at [k·8+l]); ok is false where there
// is no batched FFT.
func (p *powerSpectrum) computeBatchPacked(frames [][]float32) (pow []float32, ok bool) {
	if p.batch == nil {
		return nil, false
	}
	return p.batch.powerPacked(frames), true
}

// compute writes |X[k]|² for k = 0 … n/2 into out (length ≥ n/2+1) from the
// frame x (length n).
func (p *powerSpectrum) compute(x []float32, out []float64) {
	if p.kaldi != nil {
		p.kaldi.power(x, out)
		return
	}
	if p.mixed != nil {
		p.mixed.power(x, out)
		return
	}
	if p.gonum != nil {
		for i, v := range x[:p.n] {
			p.seq[i] = float64(v)
		}
		c := p.gonum.Coefficients(p.coeffs, p.seq)
		for k, v := range c {
			out[k] = real(v)*real(v) + imag(v)*imag(v)
		}
		return
	}
	m := p.m
	re, im := p.re[:m], p.im[:m]
	x = x[:2*m]
	rev := p.rev[:m]
	// Bit-reversed load fused with the first two stages (L = 2 and 4, whose
	// twiddles are 1 and −i): each group of four outputs takes four inputs.
	for k := 0; k < m; k += 4 {
		i0, i1, i2, i3 := 2*rev[k], 2*rev[k+1], 2*rev[k+2], 2*rev[k+3]
		ar, ai := float64(x[i0]), float64(x[i0+1])
		br, bi := float64(x[i1]), float64(x[i1+1])
		cr, ci := float64(x[i2]), float64(x[i2+1])
		dr, di := float64(x[i3]), float64(x[i3+1])
		// L = 2
		s0r, s0i := ar+br, ai+bi
		d0r, d0i := ar-br, ai-bi
		s1r, s1i := cr+dr, ci+di
		d1r, d1i := cr-dr, ci-di
		// L = 4: twiddle 1 for the sums, −i for the differences
		re[k], im[k] = s0r+s1r, s0i+s1i
		re[k+2], im[k+2] = s0r-s1r, s0i-s1i
		// (d1)·(−i) = d1i − i·d1r
		re[k+1], im[k+1] = d0r+d1i, d0i-d1r
		re[k+3], im[k+3] = d0r-d1i, d0i+d1r
	}
	tw := p.tw
	for L := 8; L <= m; L <<= 1 {
		h := L / 2
		w := tw[:2*h]
		tw = tw[2*h:]
		for s := 0; s < m; s += L {
			ar, ai := re[s:s+h], im[s:s+h]
			br, bi := re[s+h:s+L], im[s+h:s+L]
			for j := 0; j < h; j++ {
				wr, wi := w[2*j], w[2*j+1]
				tr := wr*br[j] - wi*bi[j]
				ti := wr*bi[j] + wi*br[j]
				xr, xi := ar[j], ai[j]
				ar[j], ai[j] = xr+tr, xi+ti
				br[j], bi[j] = xr-tr, xi-ti
			}
		}
	}
	// Untangle: X[0] = Re Z0 + Im Z0, X[m] = Re Z0 − Im Z0.
	out = out[:m+1]
	out[0] = (re[0] + im[0]) * (re[0] + im[0])
	out[m] = (re[0] - im[0]) * (re[0] - im[0])
	post := p.post
	for k := 1; k <= m/2; k++ {
		// For k and m−k together: Z[k] = a, conj Z[m−k] = b.
		ar, ai := re[k], im[k]
		br, bi := re[m-k], -im[m-k]
		er, ei := 0.5*(ar+br), 0.5*(ai+bi)
		// O = (a − b)/(2i) = ((ai−bi) − i(ar−br))/2
		or, oi := 0.5*(ai-bi), -0.5*(ar-br)
		c, s := post[2*k], post[2*k+1]
		tr := c*or - s*oi
		ti := c*oi + s*or
		xr, xi := er+tr, ei+ti
		out[k] = xr*xr + xi*xi
		// X[m−k] = conj(E[k]) − conj(W^k·O[k])·(−1)… written out:
		// X[n/2−k] = conj(E[k] − W^k·O[k]).
		yr, yi := er-tr, ei-ti
		out[m-k] = yr*yr + yi*yi
	}
}
