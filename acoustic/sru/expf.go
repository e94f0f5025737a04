package sru

import "math"

// exp32 is e^x in float32 to about 2 ulp: Cephes' expf. x = n·ln2 + r with
// |r| ≤ ln2/2 (n by round-to-nearest, ln2 split Cody–Waite style so that r
// is exact), e^r from a degree-7 polynomial, then 2^n put in the exponent
// bits. x is clamped to [−87.33, 88.37] so that n stays a normal exponent:
// e^x saturates at ~1.6e38 and ~1.2e−38, which is all σ needs.
//
// Every intermediate is converted to float32 explicitly: Go may fuse a·b+c
// otherwise, and the rounding trick below needs the float32 sum.
func exp32(x float32) float32 {
	const (
		log2e = 1.44269504088896341
		c1    = 0.693359375
		c2    = -2.12194440e-4
		magic = 12582912 // 1.5·2²³: adding it rounds to an integer
	)
	if x > 88.37 {
		x = 88.37
	}
	if x < -87.33 {
		x = -87.33
	}
	t := float32(x*log2e) + magic
	t = float32(t)
	n := int32(math.Float32bits(t)) - int32(math.Float32bits(magic))
	fn := float32(t - magic)
	r := float32(x - float32(fn*c1))
	r = float32(r - float32(fn*c2))
	z := float32(r * r)
	y := float32(1.9875691500e-4)
	y = float32(y*r) + 1.3981999507e-3
	y = float32(y*r) + 8.3334519073e-3
	y = float32(y*r) + 4.1665795894e-2
	y = float32(y*r) + 1.6666665459e-1
	y = float32(y*r) + 5.0000001201e-1
	y = float32(float32(y*z)+r) + 1
	return y * math.Float32frombits(uint32(n+127)<<23)
}

// sigmoid32 is σ(x) = 1/(1+e^{−x}) in float32.
func sigmoid32(x float32) float32 { return 1 / (1 + exp32(-x)) }

// sigmoidInPlace sets x[i] = σ(x[i]): eight at a time with AVX2 where the
// CPU has it, the rest with sigmoid32. Both follow exp32's steps; the
// vector path rounds its multiply-adds once, so the two may differ in the
// last bit, but a given machine always takes the same path for the same
// layout.
func sigmoidInPlace(x []float32) {
	i := 0
	if haveAVX2 && len(x) >= 8 {
		i = len(x) &^ 7
		sigmoid8(&x[0], i)
	}
	for ; i < len(x); i++ {
		x[i] = sigmoid32(x[i])
	}
}

// ExpInPlace sets x[i] = e^{x[i]} in float32, to about 2 ulp as exp32 (the
// softmax of the acoustic model's cross-entropy): eight at a time with AVX2
// where the CPU has it, the rest with exp32. x is clamped to [−87.33,
// 88.37] first, so e^x is never 0 or +Inf: below the clamp it is ~1.2e−38,
// which a sum of exponentials with its maximum subtracted never notices.
func ExpInPlace(x []float32) {
	i := 0
	if haveAVX2 && len(x) >= 8 {
		i = len(x) &^ 7
		exp8(&x[0], i)
	}
	for ; i < len(x); i++ {
		x[i] = exp32(x[i])
	}
}
