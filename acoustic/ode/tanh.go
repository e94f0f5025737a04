package ode

import "math"

// Vectorised tanh for the fused Euler kernel's activations. math.Tanh costs
// about a quarter of a training step at the reference code's sizes; tanh64
// runs four lanes at a time (AVX2+FMA) with the same operations as tanhOne,
// so the vector lanes, the scalar tail and the non-amd64 build give bitwise
// the same values; tanh32 runs the same algorithm in float32, eight lanes.
//
// Numerics, for a = min(|x|, 20) (tanh(20) rounds to 1):
//
//	y = −2a = n·ln2 + r,  n = round(y/ln2), |r| ≤ ln2/2 (Cody–Waite, two FMAs)
//	e^r − 1 = p(r) = r + r²/2! + … + r¹²/12!  (Horner; truncation < 5e-16·|p|)
//	m = e^y − 1 = 2ⁿ·p + (2ⁿ − 1)  (expm1: exact cancellation-free when n = 0)
//	tanh(a) = −m / (2 + m),  tanh(x) = sign(x)·tanh(a)
//
// Writing tanh through expm1 keeps the relative error small near 0, where
// 1 − e^{−2a} would cancel. Measured against math.Tanh over 2·10⁶ points
// in [−25, 25] and near 0 (TestTanhAccuracy): at most 6 units in the last
// place. NaN stays NaN, ±Inf gives ±1, ±0 gives ±0.

const (
	tanhClamp  = 20
	ln2Hi      = 6.93147180369123816490e-01 // high bits of ln 2 (exact in n·ln2Hi for |n| < 2²⁰)
	ln2Lo      = 1.90821492927058770002e-10
	log2e      = 1.44269504088896338700e+00
	roundMagic = 0x1.8p52 // adding it rounds to an integer held in the low mantissa bits
)

// expm1Coef are 1/k! for k = 12 down to 1.
var expm1Coef = [12]float64{
	1.0 / 479001600, 1.0 / 39916800, 1.0 / 3628800, 1.0 / 362880, 1.0 / 40320, 1.0 / 5040,
	1.0 / 720, 1.0 / 120, 1.0 / 24, 1.0 / 6, 1.0 / 2, 1,
}

// tanhOne is one lane of tanh64/tanh32, written with the vector code's
// operations in its order.
func tanhOne(x float64) float64 {
	if math.IsNaN(x) {
		return x
	}
	a := math.Min(math.Abs(x), tanhClamp)
	y := -2 * a
	t := math.FMA(y, log2e, roundMagic)
	n := t - roundMagic
	r := math.FMA(n, -ln2Hi, y)
	r = math.FMA(n, -ln2Lo, r)
	q := expm1Coef[0]
	for _, c := range expm1Coef[1:] {
		q = math.FMA(q, r, c)
	}
	p := q * r
	s := math.Float64frombits((math.Float64bits(t) + 1023) << 52) // 2ⁿ
	m := math.FMA(s, p, s-1)
	v := (0 - m) / (2 + m)
	return math.Float64frombits(math.Float64bits(v) | math.Float64bits(x)&(1<<63))
}

// tanh64 replaces every element of x by its tanh.
func tanh64(x []float64) {
	n := 0
	if haveFMA {
		n = len(x) &^ 3
		if n > 0 {
			tanh64x4(&x[0], n)
		}
	}
	for i := n; i < len(x); i++ {
		x[i] = tanhOne(x[i])
	}
}

// tanh32 replaces every element of x by its tanh. With AVX2+FMA it runs the
// algorithm of tanhOne in float32, eight lanes at a time (tanh32x8: clamp
// at 10, where tanh rounds to 1 in float32; e^r − 1 to degree 7, truncation
// < 2e-8·|p|), the tail through the same code on a padded copy, so a value's
// result does not depend on its position; measured against math.Tanh over
// 2·10⁶ points (TestTanh32): at most 4 float32 ulps. Elsewhere it rounds
// tanhOne's float64 result.
func tanh32(x []float32) {
	if !haveFMA {
		for i, v := range x {
			x[i] = float32(tanhOne(float64(v)))
		}
		return
	}
	n := len(x) &^ 7
	if n > 0 {
		tanh32x8(&x[0], n)
	}
	if n < len(x) {
		var buf [8]float32
		copy(buf[:], x[n:])
		tanh32x8(&buf[0], 8)
		copy(x[n:], buf[:])
	}
}

// tanhGrad32 is du ⊙= 1 − u² for u = tanh(·), the reverse pass of tanh32.
func tanhGrad32(du, u []float32) {
	u = u[:len(du)]
	n := 0
	if haveFMA {
		n = len(du) &^ 7
		if n > 0 {
			tanhGrad32x8(&du[0], &u[0], n)
		}
	}
	for i := n; i < len(du); i++ {
		du[i] *= 1 - u[i]*u[i]
	}
}
