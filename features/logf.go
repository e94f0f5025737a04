package features

import "math"

// logf is glibc's logf (sysdeps/ieee754/flt-32/e_logf.c, from ARM's
// optimized-routines), the function Kaldi's Log(float) calls through
// std::log/logf on Linux. It is not correctly rounded (glibc documents
// 0.82 ulp at most), so matching Kaldi's log mel energies and mel scale to
// the last bit needs its exact algorithm: x = 2^k·z with z in
// [0x3f330000, 2·0x3f330000) as float bits, c the centre of z's
// sixteenth, log x = k·ln2 + log c + log1p(z/c − 1), the log1p by a cubic
// in double, rounded once to float. On x86-64 glibc picks its FMA build
// (e_logf-fma.c) on CPUs with FMA, where GCC contracts each a·b + c below
// into one fused operation; math.FMA does the same here.
func logf(x float32) float32 {
	ix := math.Float32bits(x)
	if ix == 0x3f800000 {
		return 0
	}
	if ix-0x00800000 >= 0x7f800000-0x00800000 {
		// Zero, subnormal, negative, infinite or NaN: rare here (energies
		// are floored at FLT_EPSILON first); the double log rounded to
		// float is what glibc's special cases give for all but
		// subnormals, which are normalised as glibc does.
		if ix&0x7fffffff == 0 || ix>>31 != 0 || ix >= 0x7f800000 {
			return float32(math.Log(float64(x)))
		}
		ix = math.Float32bits(x * 0x1p23)
		ix -= 23 << 23
	}
	tmp := ix - logfOff
	i := (tmp >> (23 - 4)) % 16
	k := int32(tmp) >> 23
	iz := ix - (tmp & 0xff800000)
	t := &logfTab[i]
	z := float64(math.Float32frombits(iz))
	r := math.FMA(z, t[0], -1)
	y0 := math.FMA(float64(k), logfLn2, t[1])
	r2 := r * r
	y := math.FMA(logfPoly[1], r, logfPoly[2])
	y = math.FMA(logfPoly[0], r2, y)
	y = math.FMA(y, r2, y0+r)
	return float32(y)
}

// logfTab is glibc's __logf_data.tab: 1/c and log(c) for the sixteen
// subintervals (e_logf_data.c).
var logfTab = [16][2]float64{
	{0x1.661ec79f8f3bep+0, -0x1.57bf7808caadep-2},
	{0x1.571ed4aaf883dp+0, -0x1.2bef0a7c06ddbp-2},
	{0x1.49539f0f010bp+0, -0x1.01eae7f513a67p-2},
	{0x1.3c995b0b80385p+0, -0x1.b31d8a68224e9p-3},
	{0x1.30d190c8864a5p+0, -0x1.6574f0ac07758p-3},
	{0x1.25e227b0b8eap+0, -0x1.1aa2bc79c81p-3},
	{0x1.1bb4a4a1a343fp+0, -0x1.a4e76ce8c0e5ep-4},
	{0x1.12358f08ae5bap+0, -0x1.1973c5a611cccp-4},
	{0x1.0953f419900a7p+0, -0x1.252f438e10c1ep-5},
	{0x1p+0, 0x0p+0},
	{0x1.e608cfd9a47acp-1, 0x1.aa5aa5df25984p-5},
	{0x1.ca4b31f026aap-1, 0x1.c5e53aa362eb4p-4},
	{0x1.b2036576afce6p-1, 0x1.526e57720db08p-3},
	{0x1.9c2d163a1aa2dp-1, 0x1.bc2860d22477p-3},
	{0x1.886e6037841edp-1, 0x1.1058bc8a07ee1p-2},
	{0x1.767dcf5534862p-1, 0x1.4043057b6ee09p-2},
}

const logfLn2 = 0x1.62e42fefa39efp-1

// logfOff is glibc's OFF: the float bits of the start of the subinterval
// [0x3f330000, 2·0x3f330000) z is reduced to.
const logfOff = 0x3f330000

// logfPoly is __logf_data.poly: log1p(r) ≈ r + A0·r² … (the first-order
// coefficient is 1).
var logfPoly = [3]float64{-0x1.00ea348b88334p-2, 0x1.5575b0be00b6ap-2, -0x1.ffffef20a4123p-2}
