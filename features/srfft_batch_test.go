package features

import (
	"math"
	"math/rand/v2"
	"strconv"
	"testing"
)

// The 8-frame FFT must give every frame exactly (bit for bit) the power
// spectrum of the one-frame code, which replicates Kaldi's float FFT.
func TestSplitRadixBatchMatches(t *testing.T) {
	if !haveBatchKernels() {
		t.Skip("no vector kernels on this CPU")
	}
	rng := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{4, 8, 16, 32, 64, 128, 256, 512, 1024, 4096} {
		for _, nf := range []int{1, 3, 8} {
			s := newSplitRadixFFT(n)
			b := newSplitRadixBatch(s)
			frames := make([][]float32, nf)
			outs := make([][]float64, nf)
			for l := range frames {
				frames[l] = make([]float32, n)
				scale := math.Pow(10, float64(rng.IntN(8)))
				for i := range frames[l] {
					frames[l][i] = float32(rng.NormFloat64() * scale)
				}
				outs[l] = make([]float64, n/2+1)
			}
			b.power(frames, outs)
			want := make([]float64, n/2+1)
			for l := range frames {
				s.power(append([]float32(nil), frames[l]...), want)
				for k := range want {
					if math.Float64bits(outs[l][k]) != math.Float64bits(want[k]) {
						t.Fatalf("n=%d frames=%d frame %d bin %d: batch %v, one-frame %v", n, nf, l, k, outs[l][k], want[k])
					}
				}
			}
		}
	}
}

// BenchmarkSplitRadixBatch is the per-frame cost of the 8-frame FFT (power
// spectrum included), to compare with BenchmarkRealFFT/kaldi-srfft.
func BenchmarkSplitRadixBatch(b *testing.B) {
	if !haveBatchKernels() {
		b.Skip("no vector kernels on this CPU")
	}
	for _, n := range []int{256, 512, 1024} {
		rng := rand.New(rand.NewPCG(3, 4))
		frames := make([][]float32, batchLanes)
		outs := make([][]float64, batchLanes)
		for l := range frames {
			frames[l] = make([]float32, n)
			for i := range frames[l] {
				frames[l][i] = float32(rng.NormFloat64())
			}
			outs[l] = make([]float64, n/2+1)
		}
		p := newSplitRadixBatch(newSplitRadixFFT(n))
		b.Run("n="+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				p.power(frames, outs)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*batchLanes), "ns/frame")
		})
	}
}
