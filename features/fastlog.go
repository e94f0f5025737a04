package features

import "math"

// logTabBits is how many leading mantissa bits index logTab.
const logTabBits = 8

// logTables is what logFloorAVX2 reads: logTab[j] = log(1 + j/256),
// invTab[j] = 1/(1 + j/256), and its constants (as bits: FLT_EPSILON, the
// mantissa mask, 1.0, 255, 2^52, 2^52+1023, 1, 0.5, 1/6, 1/5, 0.25, 1/3,
// ln 2), in this layout.
type logTables struct {
	log, inv [1 << logTabBits]float64
	consts   [13]uint64
}

var logTabs = func() *logTables {
	t := &logTables{}
	for j := range t.log {
		c := 1 + float64(j)/(1<<logTabBits)
		t.log[j], t.inv[j] = math.Log(c), 1/c
	}
	f := math.Float64bits
	t.consts = [13]uint64{f(float32Epsilon), 1<<52 - 1, f(1), 1<<logTabBits - 1, f(1 << 52), f(1<<52 + 1023),
		f(1), f(0.5), f(1.0 / 6), f(1.0 / 5), f(0.25), f(1.0 / 3), f(math.Ln2)}
	return t
}()

var logTab, invTab = &logTabs.log, &logTabs.inv

// log32 is float32(log(x)) for the float energies the features take the log
// of, in a third of math.Log's time (the log was a fifth of a one-core fbank
// run). x = 2^e·m with m in [1, 2); c = 1 + j/256 is m truncated to 8
// mantissa bits, r = m/c − 1 in [0, 2^−8), and
// log x = e·ln 2 + log c + log1p(r), log1p by its series to r⁶ (truncation
// error below r⁷/7 < 2^−59). The double result is within ~1e-15 of log x, so
// rounding it to float gives the correctly rounded float log except when
// log x lies within that distance of a halfway point between two floats
// (TestLog32 finds no such case among 10⁶ values); then it is one ulp off,
// as glibc's logf, which Kaldi uses, may be. Zero, negative, infinite and
// NaN inputs go to math.Log.
func log32(x float64) float32 {
	b := math.Float64bits(x)
	exp := int(b>>52) & 0x7ff
	if exp == 0 || exp == 0x7ff || b>>63 != 0 {
		return float32(math.Log(x))
	}
	m := math.Float64frombits(b&(1<<52-1) | 1023<<52)
	j := (b >> (52 - logTabBits)) & (1<<logTabBits - 1)
	// Every product is rounded explicitly (float64(…)) so that no build
	// fuses it into an FMA: logFloorAVX2 performs these same operations in
	// this order and must give the same bits.
	r := float64(m*invTab[j]) - 1
	// Estrin's scheme: three independent pairs instead of one long chain.
	r2 := float64(r * r)
	a := float64(r * (1 - float64(0.5*r)))
	c := float64(r2 * (1.0/5 - float64(r*(1.0/6))))
	q := float64(float64(r2*r) * ((1.0/3 - float64(0.25*r)) + c))
	return float32(float64(float64(exp-1023)*math.Ln2) + logTab[j] + (a + q))
}

// logFloor writes dst[i] = logf(max(float32(src[i]), FLT_EPSILON)):
// Kaldi's ApplyFloor(FLT_EPSILON) and ApplyLog on the float mel energies.
// Kaldi's Log(float) is glibc's logf, which is not always the correctly
// rounded log that log32 (and its AVX2 kernel, logFloorVec) computes; on
// kaldi-golden's fbank40e the correctly rounded log misses Kaldi's
// log-energy on 100 of 612 frames where logf misses 12, so the features
// use logf (see logf.go).
func logFloor(dst []float32, src []float64) {
	dst = dst[:len(src)]
	for i, v := range src {
		x := max(float32(v), float32Epsilon)
		ix := math.Float32bits(x)
		if ix-0x00800000 >= 0x7f800000-0x00800000 || ix == 0x3f800000 {
			dst[i] = logf(x) // infinite, NaN or 1
			continue
		}
		// logf's normal path written out here, so that the loop's
		// iterations (independent chains of fused operations) overlap.
		tmp := ix - logfOff
		t := &logfTab[(tmp>>(23-4))%16]
		k := int32(tmp) >> 23
		z := float64(math.Float32frombits(ix - tmp&0xff800000))
		r := math.FMA(z, t[0], -1)
		y0 := math.FMA(float64(k), logfLn2, t[1])
		r2 := r * r
		y := math.FMA(logfPoly[1], r, logfPoly[2])
		y = math.FMA(logfPoly[0], r2, y)
		dst[i] = float32(math.FMA(y, r2, y0+r))
	}
}
