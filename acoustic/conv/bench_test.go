package conv

import (
	"fmt"
	"math/rand"
	"testing"
	"time"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/internal/cputime"
)

// The reference Rotating MNIST encoder (kernel 5) and decoder (kernel 4)
// for ndf channels at the first layer and a 4·ndf latent, 1×64×64 images.
func encoderLayers(ndf int) []Options {
	return []Options{
		{InChannels: 1, OutChannels: ndf, KernelSize: 5, Stride: 4, Padding: 2, Height: 64, Width: 64},
		{InChannels: ndf, OutChannels: 2 * ndf, KernelSize: 5, Stride: 2, Padding: 2, Height: 16, Width: 16},
		{InChannels: 2 * ndf, OutChannels: 4 * ndf, KernelSize: 5, Stride: 2, Padding: 2, Height: 8, Width: 8},
		{InChannels: 4 * ndf, OutChannels: 4 * ndf, KernelSize: 4, Stride: 1, Padding: 0, Height: 4, Width: 4},
	}
}

func decoderLayers(ndf int) []Options {
	return []Options{
		{InChannels: 4 * ndf, OutChannels: 4 * ndf, KernelSize: 4, Stride: 4, Padding: 0, Height: 1, Width: 1},
		{InChannels: 4 * ndf, OutChannels: 2 * ndf, KernelSize: 4, Stride: 2, Padding: 1, Height: 4, Width: 4},
		{InChannels: 2 * ndf, OutChannels: ndf, KernelSize: 4, Stride: 2, Padding: 1, Height: 8, Width: 8},
		{InChannels: ndf, OutChannels: 1, KernelSize: 4, Stride: 4, Padding: 0, Height: 16, Width: 16},
	}
}

// flops is the multiply-adds ×2 of one layer's forward product for n images
// (each of the two reverse products costs the same).
func flops(o Options, n int, transposed bool) float64 {
	h, w := o.OutSize()
	if transposed {
		h, w = o.Height, o.Width
	}
	return 2 * float64(n*h*w) * float64(o.OutChannels*o.InChannels*o.KernelSize*o.KernelSize)
}

// benchKernel times Forward+Backward of one layer's kernel, without the
// graph machinery.
func benchKernel(b *testing.B, k autodiff.Kernel, n int, o Options, transposed bool) {
	rng := rand.New(rand.NewSource(1))
	wr, wc := o.WeightShape()
	if transposed {
		wr, wc = o.TransposedWeightShape()
	}
	shapes := [][2]int{{n, o.InChannels * o.Height * o.Width}, {wr, wc}}
	rows, cols, err := k.Shape(shapes)
	if err != nil {
		b.Fatal(err)
	}
	in := [][]float64{randSlice(rng, shapes[0][0]*shapes[0][1], 1), randSlice(rng, wr*wc, 0.05)}
	din := [][]float64{make([]float64, len(in[0])), make([]float64, len(in[1]))}
	out, dout := make([]float64, rows*cols), randSlice(rng, rows*cols, 1)
	b.ResetTimer()
	cpu := cputime.Process()
	for i := 0; i < b.N; i++ {
		k.Forward(out, in)
		for _, d := range din {
			clear(d)
		}
		k.Backward(din, dout, in)
	}
	reportCPU(b, cpu)
	b.ReportMetric(3*flops(o, n, transposed)*float64(b.N)/b.Elapsed().Seconds()/1e9, "GFLOP/s")
}

// reportCPU reports the process CPU time per op since cpu (all threads).
func reportCPU(b *testing.B, cpu time.Duration) {
	b.ReportMetric(float64(cputime.Process()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkConv2D: the encoder's layers, batch 50, forward + backward.
func BenchmarkConv2D(b *testing.B) {
	for _, ndf := range []int{16, 64} {
		for l, o := range encoderLayers(ndf) {
			b.Run(fmt.Sprintf("ndf=%d/layer=%d", ndf, l+1), func(b *testing.B) {
				benchKernel(b, &conv2d[float32]{o: o}, 50, o, false)
			})
		}
	}
}

// BenchmarkConvTranspose2D: the decoder's layers, batch 50.
func BenchmarkConvTranspose2D(b *testing.B) {
	for _, ndf := range []int{16, 64} {
		for l, o := range decoderLayers(ndf) {
			b.Run(fmt.Sprintf("ndf=%d/layer=%d", ndf, l+1), func(b *testing.B) {
				benchKernel(b, &convTranspose2d[float32]{o: o}, 50, o, true)
			})
		}
	}
}

// BenchmarkBatchNorm2D: the encoder's second layer's batch norm at ndf 64.
func BenchmarkBatchNorm2D(b *testing.B) {
	const n, c, p = 50, 128, 64
	k := &batchNorm2d{bn: NewBatchNorm(c)}
	if _, _, err := k.Shape([][2]int{{n, c * p}, {1, c}, {1, c}}); err != nil {
		b.Fatal(err)
	}
	rng := rand.New(rand.NewSource(1))
	in := [][]float64{randSlice(rng, n*c*p, 1), randSlice(rng, c, 1), randSlice(rng, c, 1)}
	din := [][]float64{make([]float64, n*c*p), make([]float64, c), make([]float64, c)}
	out, dout := make([]float64, n*c*p), randSlice(rng, n*c*p, 1)
	for i := 0; i < b.N; i++ {
		k.Forward(out, in)
		k.Backward(din, dout, in)
	}
}
