package sru

import "math"

// log32 is log x in float32 to about 1 ulp: Cephes' logf. x = 2^e·m with
// m in [√½, √2), log m = f − f²/2 + f³·P(f) with f = m − 1 and P of
// degree 8, and e·ln 2 added in two parts (ln 2 = 0.693359375 −
// 2.12194440e−4, the first exact in a few bits) so that the sum loses
// nothing. Zero, negative, subnormal, infinite and NaN inputs go to
// math.Log.
//
// Every intermediate is converted to float32 explicitly, as in exp32, so
// that no build fuses a product into an FMA and the result is the same on
// every machine.
func log32(x float32) float32 {
	b := math.Float32bits(x)
	if b-0x00800000 >= 0x7f000000 { // not a positive normal float
		return float32(math.Log(float64(x)))
	}
	e := int32(b>>23) - 127
	m := math.Float32frombits(b&0x007fffff | 0x3f800000) // [1, 2)
	if m > math.Sqrt2 {
		m = float32(m * 0.5)
		e++
	}
	f := float32(m - 1)
	z := float32(f * f)
	y := float32(7.0376836292e-2)
	y = float32(y*f) - 1.1514610310e-1
	y = float32(y*f) + 1.1676998740e-1
	y = float32(y*f) - 1.2420140846e-1
	y = float32(y*f) + 1.4249322787e-1
	y = float32(y*f) - 1.6668057665e-1
	y = float32(y*f) + 2.0000714765e-1
	y = float32(y*f) - 2.4999993993e-1
	y = float32(y*f) + 3.3333331174e-1
	y = float32(y * float32(z*f))
	fe := float32(e)
	y = y + float32(-2.12194440e-4*fe)
	y = y - float32(0.5*z)
	return float32(f+y) + float32(0.693359375*fe)
}

// LogInPlace sets x[i] = log x[i] in float32, to about 1 ulp as log32:
// eight at a time with AVX2 where the CPU has it (log8), the rest — and any
// block of eight holding a value that is not a positive normal float — with
// log32. As with ExpInPlace, the vector path rounds its multiply-adds once,
// so the two may differ in the last bit.
func LogInPlace(x []float32) {
	i := 0
	if haveAVX2 {
		n8 := len(x) &^ 7
		for i < n8 {
			i += log8(&x[i], n8-i)
			if i < n8 { // a block with a special value
				for j := i; j < i+8; j++ {
					x[j] = log32(x[j])
				}
				i += 8
			}
		}
	}
	for ; i < len(x); i++ {
		x[i] = log32(x[i])
	}
}

// TanhInPlace sets x[i] = tanh x[i] = 2σ(2x[i]) − 1 in float32 with the
// logistic's vector code (sigmoidInPlace), as the fused layers' ActTanh:
// within about 1e-7 of math.Tanh.
func TanhInPlace(x []float32) {
	for i, v := range x {
		x[i] = 2 * v
	}
	sigmoidInPlace(x)
	for i, v := range x {
		x[i] = 2*v - 1
	}
}
