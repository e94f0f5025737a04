package conv

import (
	"fmt"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/internal/cputime"
)

// autoencoder is the reference Rotating MNIST encoder and decoder end to
// end as one graph (without the ODE between them): conv → LeakyReLU,
// (conv → BN → LeakyReLU) ×2, conv to the latent, then (convT → BN → ReLU)
// ×3, convT → tanh, and the mean squared error against a target batch.
type autoencoder struct {
	g      *autodiff.Graph
	x, y   []float64 // input and target batches
	cost   *autodiff.Node
	params []*autodiff.Node
	m      *autodiff.Machine
}

func newAutoencoder(n, ndf int, seed int64) (*autoencoder, error) {
	rng := rand.New(rand.NewSource(seed))
	a := &autoencoder{g: autodiff.New()}
	g := a.g
	param := func(rows, cols int, fill func([]float64)) *autodiff.Node {
		d := make([]float64, rows*cols)
		fill(d)
		p := g.Param("p", d, rows, cols)
		a.params = append(a.params, p)
		return p
	}
	bnorm := func(h *autodiff.Node, c int, slope float64) *autodiff.Node {
		gamma := param(1, c, func(d []float64) { BatchNormInit(d, nil) })
		beta := param(1, c, func([]float64) {})
		return BatchNorm2DLeakyReLU(g, h, gamma, beta, NewBatchNorm(c), slope)
	}
	var x, y *autodiff.Node
	x, a.x = g.Input("x", n, 64*64)
	y, a.y = g.Input("y", n, 64*64)
	h := x
	for l, o := range encoderLayers(ndf) {
		r, c := o.WeightShape()
		o.NoInputGradient = l == 0
		h = Conv2D(g, h, param(r, c, func(d []float64) { DefaultInit(rng, d, nil, o.FanIn()) }), nil, o)
		switch l {
		case 0:
			h = LeakyReLU(g, h, 0.2)
		case 1, 2:
			h = bnorm(h, o.OutChannels, 0.2)
		}
	}
	for l, o := range decoderLayers(ndf) {
		r, c := o.TransposedWeightShape()
		h = ConvTranspose2D(g, h, param(r, c, func(d []float64) { DefaultInit(rng, d, nil, o.TransposedFanIn()) }), nil, o)
		if l < 3 {
			h = bnorm(h, o.OutChannels, 0)
		} else {
			h = Tanh(g, h)
		}
	}
	a.cost = g.Mean(g.Square(g.Sub(h, y)))
	for i := range a.x {
		a.x[i] = 2*rng.Float64() - 1
		a.y[i] = 2*rng.Float64() - 1
	}
	m, err := g.Compile(a.cost, a.params)
	if err != nil {
		return nil, err
	}
	a.m = m
	return a, nil
}

// BenchmarkStack is one training step's forward and backward pass of the
// encoder and decoder at batch 50 (bench/conv.sh runs it against PyTorch).
func BenchmarkStack(b *testing.B) {
	for _, ndf := range []int{16, 32, 64} {
		b.Run(fmt.Sprintf("ndf=%d", ndf), func(b *testing.B) {
			a, err := newAutoencoder(50, ndf, 1)
			if err != nil {
				b.Fatal(err)
			}
			defer a.m.Close()
			b.ResetTimer()
			cpu := cputime.Process()
			for i := 0; i < b.N; i++ {
				if err := a.m.Run(); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu)
			b.ReportMetric(50*float64(b.N)/b.Elapsed().Seconds(), "images/s")
		})
	}
}

// TestStackRuns: the whole autoencoder builds, runs and gives every
// parameter a finite, non-zero gradient.
func TestStackRuns(t *testing.T) {
	a, err := newAutoencoder(4, 2, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer a.m.Close()
	if err := a.m.Run(); err != nil {
		t.Fatal(err)
	}
	for i := range a.params {
		nonzero := false
		for _, v := range a.m.Grad(i) {
			if v != v {
				t.Fatalf("parameter %d: NaN gradient", i)
			}
			nonzero = nonzero || v != 0
		}
		if !nonzero {
			t.Errorf("parameter %d: zero gradient", i)
		}
	}
}
