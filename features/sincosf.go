package features

import "math"

// cosf and sinf return the float cosine and sine exactly as glibc's cosf and
// sinf (the implementation Kaldi's std::cos(float)/std::sin(float) call on
// Linux, in its FMA variant on current x86-64): the argument is reduced by
// the nearest multiple of π/2 in double, and a short even or odd polynomial
// in double is evaluated with fused multiply-adds and rounded to float. Kaldi
// builds its FFT twiddle tables with them, and matching them to the last bit
// keeps our FFT's rounding identical to Kaldi's. Only |x| < 120 is handled
// this way (FFT angles are below 2π); larger arguments fall back to
// math.Cos/math.Sin.
//
// Polynomial coefficients (double): cos ≈ c0 + c1·x² + c2·x⁴ + c3·x⁶ + c4·x⁸,
// sin ≈ x + s1·x³ + s2·x⁵ + s3·x⁷; the second set negates the cosine terms
// for quadrants 2 and 3.
var sincosfCoeffs = [2]struct{ c0, c1, c2, c3, c4 float64 }{
	{1, -0x1.ffffffd0c621cp-2, 0x1.55553e1068f19p-5, -0x1.6c087e89a359dp-10, 0x1.99343027bf8c3p-16},
	{-1, 0x1.ffffffd0c621cp-2, -0x1.55553e1068f19p-5, 0x1.6c087e89a359dp-10, -0x1.99343027bf8c3p-16},
}

const (
	sincosfS1    = -0x1.555545995a603p-3
	sincosfS2    = 0x1.1107605230bc4p-7
	sincosfS3    = -0x1.994eb3774cf24p-13
	sincosfHpi   = 0x1.921FB54442D18p0   // π/2
	sincosfHpiIn = 0x1.45F306DC9C883p+23 // 2/π · 2^24
)

var sincosfSign = [4]float64{1, -1, -1, 1}

// abstop12 is the top 12 bits of |x|'s float encoding (exponent and three
// mantissa bits), the coarse magnitude test glibc uses.
func abstop12(x float32) uint32 { return (math.Float32bits(x) >> 20) & 0x7ff }

// sincosfPoly evaluates sin (n even) or cos (n odd) of the reduced argument.
func sincosfPoly(x, x2 float64, tab int, n int) float32 {
	if n&1 == 0 {
		x3 := x * x2
		s1 := math.FMA(x2, sincosfS3, sincosfS2)
		x7 := x3 * x2
		s := math.FMA(x3, sincosfS1, x)
		return float32(math.FMA(x7, s1, s))
	}
	p := &sincosfCoeffs[tab]
	x4 := x2 * x2
	c2 := math.FMA(x2, p.c4, p.c3)
	c1 := math.FMA(x2, p.c1, p.c0)
	x6 := x4 * x2
	c := math.FMA(x4, p.c2, c1)
	return float32(math.FMA(x6, c2, c))
}

// reduceFast returns x − n·π/2 and the quadrant n.
func reduceFast(x float64) (float64, int) {
	r := x * sincosfHpiIn
	n := int((int32(r) + 0x800000) >> 24)
	return math.FMA(-float64(n), sincosfHpi, x), n
}

func sinf(y float32) float32 {
	x := float64(y)
	switch {
	case abstop12(y) < abstop12(0x1.921FB6p-1): // |y| < π/4, coarsely
		if abstop12(y) < abstop12(0x1p-12) {
			return y
		}
		return sincosfPoly(x, x*x, 0, 0)
	case abstop12(y) < abstop12(120):
		r, n := reduceFast(x)
		s := sincosfSign[n&3]
		tab := 0
		if n&2 != 0 {
			tab = 1
		}
		return sincosfPoly(r*s, r*r, tab, n)
	}
	return float32(math.Sin(x))
}

func cosf(y float32) float32 {
	x := float64(y)
	switch {
	case abstop12(y) < abstop12(0x1.921FB6p-1):
		if abstop12(y) < abstop12(0x1p-12) {
			return 1
		}
		return sincosfPoly(x, x*x, 0, 1)
	case abstop12(y) < abstop12(120):
		r, n := reduceFast(x)
		s := sincosfSign[n&3]
		tab := 0
		if n&2 != 0 {
			tab = 1
		}
		return sincosfPoly(r*s, r*r, tab, n^1)
	}
	return float32(math.Cos(x))
}
