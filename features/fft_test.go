package features

import (
	"math"
	"math/cmplx"
	"math/rand/v2"
	"runtime"
	"strconv"
	"testing"

	dspfft "github.com/mjibson/go-dsp/fft"
	"gonum.org/v1/gonum/dsp/fourier"
)

// naivePower is the O(n²) DFT power spectrum the FFT must reproduce.
func naivePower(x []float32) []float64 {
	n := len(x)
	out := make([]float64, n/2+1)
	for k := range out {
		var s complex128
		for j, v := range x {
			s += complex(float64(v), 0) * cmplx.Exp(complex(0, -2*math.Pi*float64(j*k)/float64(n)))
		}
		out[k] = real(s)*real(s) + imag(s)*imag(s)
	}
	return out
}

func TestPowerSpectrumMatchesDFT(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{8, 16, 64, 256, 400, 512, 1024, 200, 30} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 1000)
		}
		want := naivePower(x)
		check := func(name string, got []float64, tol float64) {
			var m float64
			for k := range want {
				m = max(m, math.Abs(got[k]-want[k])/(math.Abs(want[k])+1e-3*want[0]))
			}
			if m > tol {
				t.Errorf("n=%d %s: max relative difference %g > %g", n, name, m, tol)
			}
		}
		got := make([]float64, n/2+1)
		newPowerSpectrum(n).compute(append([]float32(nil), x...), got)
		// Kaldi's float arithmetic; its mixed-radix twiddles come from
		// chains of complex multiplications, so they drift a little more.
		tol := 1e-4
		if n&(n-1) != 0 {
			tol = 1e-3
		}
		check("default", got, tol)
		if n&(n-1) == 0 {
			ex := &powerSpectrum{}
			*ex = *newPowerSpectrum(n)
			ex.kaldi = nil // our float64 radix-2
			ex.compute(append([]float32(nil), x...), got)
			check("float64 radix-2", got, 1e-9)
		}
	}
}

// BenchmarkRealFFT compares the real-input FFTs available to us at Kaldi's
// frame sizes (256: 8 kHz, 512: 16 kHz, 1024: 16 kHz with 50 ms frames):
// ours one frame at a time (Kaldi's float split-radix) and eight frames at
// a time, power spectrum included in both, gonum's dsp/fourier and go-dsp's
// FFTReal. Each reports the thread's CPU time per frame (cpu-ns/frame),
// which other processes on a shared machine do not inflate as they do the
// wall-time ns/op.
func BenchmarkRealFFT(b *testing.B) {
	for _, n := range []int{256, 512, 1024} {
		rng := rand.New(rand.NewPCG(3, 4))
		x32 := make([]float32, n)
		x64 := make([]float64, n)
		for i := range x32 {
			x32[i] = float32(rng.NormFloat64())
			x64[i] = float64(x32[i])
		}
		b.Run("strode-1frame/n="+strconv.Itoa(n), func(b *testing.B) {
			p := newSplitRadixFFT(n)
			out := make([]float64, n/2+1)
			loopCPU(b, 1, func() { p.power(x32, out) })
		})
		b.Run("strode-8frames/n="+strconv.Itoa(n), func(b *testing.B) {
			p := newPowerSpectrum(n)
			frames := make([][]float32, p.batchLen())
			outs := make([][]float64, p.batchLen())
			for l := range frames {
				frames[l] = x32
				outs[l] = make([]float64, n/2+1)
			}
			loopCPU(b, len(frames), func() { p.computeBatch(frames, outs) })
		})
		b.Run("gonum/n="+strconv.Itoa(n), func(b *testing.B) {
			f := fourier.NewFFT(n)
			c := make([]complex128, n/2+1)
			loopCPU(b, 1, func() { f.Coefficients(c, x64) })
		})
		b.Run("go-dsp/n="+strconv.Itoa(n), func(b *testing.B) {
			loopCPU(b, 1, func() { dspfft.FFTReal(x64) })
		})
	}
}

// loopCPU runs body in b.Loop on a locked OS thread and reports the
// thread's CPU time per item (perOp items per call).
func loopCPU(b *testing.B, perOp int, body func()) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	c0 := threadCPU()
	for b.Loop() {
		body()
	}
	if c := threadCPU() - c0; c > 0 {
		b.ReportMetric(float64(c.Nanoseconds())/float64(b.N*perOp), "cpu-ns/frame")
	}
}

// The AVX kernels must round exactly as the scalar (Kaldi's) operations.
func TestSplitRadixAVXMatchesScalar(t *testing.T) {
	if !useAVX {
		t.Skip("no AVX on this CPU")
	}
	defer func() { useAVX = true }()
	rng := rand.New(rand.NewPCG(9, 9))
	for _, n := range []int{16, 64, 256, 512, 1024, 4096} {
		x := make([]float32, n)
		for i := range x {
			x[i] = float32(rng.NormFloat64() * 1000)
		}
		a, b := make([]float64, n/2+1), make([]float64, n/2+1)
		useAVX = true
		newSplitRadixFFT(n).power(append([]float32(nil), x...), a)
		useAVX = false
		newSplitRadixFFT(n).power(append([]float32(nil), x...), b)
		for k := range a {
			if math.Float64bits(a[k]) != math.Float64bits(b[k]) {
				t.Fatalf("n=%d bin %d: AVX %v, scalar %v", n, k, a[k], b[k])
			}
		}
	}
}
