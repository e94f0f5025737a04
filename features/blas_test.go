package features

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/strode-asr/strode/internal/shareddata"
)

// fmaf is a fused multiply-add in float: a·b+c rounded once. The product
// of two floats is exact in a double, so the double FMA rounded to float
// differs from a float FMA only when the double result lands exactly
// halfway between two floats, which sums of these magnitudes practically
// never do.
func fmaf(a, b, c float32) float32 {
	return float32(math.FMA(float64(a), float64(b), float64(c)))
}

// sdotKaldi is OpenBLAS's sdot (kernel/x86_64/sdot.c with the AVX2 micro-
// kernel sdot_microk_haswell-2.c) of x and y[0], y[stride], … (y holds
// float values; stride lets the mel filters read the batched,
// element-major spectra in place). The first n&−32 products go through the
// micro-kernel (four 8-lane float accumulators, one FMA per element, then
// a fixed reduction tree); the remaining ones are rounded to float and
// added one by one to a double, the micro-kernel's float sum is added to
// that double last, and the result is rounded to float.
//
// Kept as a reference: TestMelSdotOrder measures it against the double sum
// the features use (MelBanks.Compute).
func sdotKaldi[T float32 | float64](x []float32, y []T, stride int) float32 {
	n := len(x)
	if n == 0 {
		return 0
	}
	_ = y[(n-1)*stride]
	n1 := n &^ 31
	var dot float64
	for i := n1; i < n; i++ {
		dot += float64(mul32(float32(y[i*stride]), x[i]))
	}
	if n1 > 0 {
		dot += float64(sdotKernel16(x[:n1], y, stride))
	}
	return float32(dot)
}

// sdotKernel16 is sdot_microk_haswell-2.c's sdot_kernel_16 (len(x) a
// multiple of 32): element i+8k+l of each block of 32 goes into lane l of
// accumulator k with vfmadd231ps; then each accumulator's upper four lanes
// are added to its lower four (vextractf128, vaddps), the four
// accumulators are added as (a0+a1)+(a2+a3), and two vhaddps finish.
func sdotKernel16[T float32 | float64](x []float32, y []T, stride int) float32 {
	var acc [4][8]float32
	for i := 0; i < len(x); i += 32 {
		for k := range acc {
			for l := range acc[k] {
				j := i + 8*k + l
				acc[k][l] = fmaf(float32(y[j*stride]), x[j], acc[k][l])
			}
		}
	}
	var v [4][4]float32
	for k := range acc {
		for l := 0; l < 4; l++ {
			v[k][l] = acc[k][l] + acc[k][l+4]
		}
	}
	var z [4]float32
	for l := range z {
		z[l] = (v[0][l] + v[1][l]) + (v[2][l] + v[3][l])
	}
	return (z[0] + z[1]) + (z[2] + z[3])
}

// TestMelSdotOrder holds the choice of the features' double sum
// (MelBanks.Compute) over an emulation of OpenBLAS's sdot order
// (sdotKaldi), which costs fbank two to three times its time: from the same
// power spectra, the double sum reproduces at least 97 % of kaldi-golden's
// fbank23 values bit for bit and the emulation at most half a per cent
// more (measured: 13,721 and 13,706 of 14,076).
func TestMelSdotOrder(t *testing.T) {
	dir := shareddata.Dir(t, "kaldi-golden")
	ark := filepath.Join(dir, "fbank23.ark")
	if !fileExists(ark) {
		t.Skip("no fbank23.ark")
	}
	want := map[string]binMatrix{}
	for _, m := range readBinaryArk(t, ark) {
		want[m.key] = m
	}
	o := DefaultFbankOptions()
	o.Frame.Dither = 0
	ex, err := newFrameExtractor(o.Frame)
	if err != nil {
		t.Fatal(err)
	}
	mb, err := NewMelBanks(o.Mel, o.Frame, 1)
	if err != nil {
		t.Fatal(err)
	}
	ps := newPowerSpectrum(o.Frame.PaddedWindowSize())
	frame := make([]float32, o.Frame.PaddedWindowSize())
	spec := make([]float64, len(frame)/2+1)
	energies := make([]float64, mb.NumBins())
	var sdotSame, sumSame, n int
	for _, kv := range readScp(t, filepath.Join(dir, "wav.scp")) {
		w := readWaveFile(t, filepath.Join(dir, kv[1]))
		m := want[kv[0]]
		for r := 0; r < m.rows; r++ {
			ex.extract(w.Data[0], r, frame, false)
			ps.compute(frame, spec)
			mb.Compute(spec, energies)
			for i, b := range mb.bins {
				w32 := make([]float32, len(b.w))
				for j, v := range b.w {
					w32[j] = float32(v)
				}
				k := float32(m.data[r*m.cols+i])
				if logf(max(sdotKaldi(w32, spec[b.offset:], 1), float32Epsilon)) == k {
					sdotSame++
				}
				if logf(max(float32(energies[i]), float32Epsilon)) == k {
					sumSame++
				}
				n++
			}
		}
	}
	t.Logf("fbank23: sdot order %d/%d, double sum %d/%d bit-identical", sdotSame, n, sumSame, n)
	if n == 0 || float64(sumSame) < 0.97*float64(n) {
		t.Errorf("the double sum reproduces %d of %d values, under 97 %%", sumSame, n)
	}
	if float64(sdotSame-sumSame) > 0.005*float64(n) {
		t.Errorf("the sdot order reproduces %d more of %d values than the double sum: worth its cost?", sdotSame-sumSame, n)
	}
}
