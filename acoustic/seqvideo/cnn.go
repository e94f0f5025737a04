package seqvideo

import (
	"fmt"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/conv"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// Norm is one BatchNorm2d: its learned scale and shift and its running
// statistics and mode.
type Norm struct {
	Gamma, Beta *optim.Param // 1 × channels
	State       *conv.BatchNorm
}

// CNNLayer is one convolution (or transposed convolution) of the encoder or
// decoder, without bias as in the reference, followed by an optional
// BatchNorm.
type CNNLayer struct {
	Geom   conv.Options
	Weight *optim.Param
	Norm   *Norm // nil: no BatchNorm
}

// CNN is the reference's DCGAN-style encoder (Transposed false) or decoder
// (Transposed true).
type CNN struct {
	Transposed bool
	Layers     []CNNLayer
}

// encoderGeometry is the reference's encode_xt for width ndf:
// 1×64×64 → ndf×16×16 → 2ndf×8×8 → 4ndf×4×4 → 4ndf×1×1 (kernels 5, 5, 5, 4).
func encoderGeometry(ndf int) []conv.Options {
	return []conv.Options{
		{InChannels: 1, OutChannels: ndf, KernelSize: 5, Stride: 4, Padding: 2, Height: 64, Width: 64, NoInputGradient: true},
		{InChannels: ndf, OutChannels: 2 * ndf, KernelSize: 5, Stride: 2, Padding: 2, Height: 16, Width: 16},
		{InChannels: 2 * ndf, OutChannels: 4 * ndf, KernelSize: 5, Stride: 2, Padding: 2, Height: 8, Width: 8},
		{InChannels: 4 * ndf, OutChannels: 4 * ndf, KernelSize: 4, Stride: 1, Padding: 0, Height: 4, Width: 4},
	}
}

// decoderGeometry is the reference's deconv for width ndf, the mirror:
// 4ndf×1×1 → 4ndf×4×4 → 2ndf×8×8 → ndf×16×16 → 1×64×64 (kernels 4).
func decoderGeometry(ndf int) []conv.Options {
	return []conv.Options{
		{InChannels: 4 * ndf, OutChannels: 4 * ndf, KernelSize: 4, Stride: 4, Padding: 0, Height: 1, Width: 1},
		{InChannels: 4 * ndf, OutChannels: 2 * ndf, KernelSize: 4, Stride: 2, Padding: 1, Height: 4, Width: 4},
		{InChannels: 2 * ndf, OutChannels: ndf, KernelSize: 4, Stride: 2, Padding: 1, Height: 8, Width: 8},
		{InChannels: ndf, OutChannels: 1, KernelSize: 4, Stride: 4, Padding: 0, Height: 16, Width: 16},
	}
}

// newCNN adds the layers' parameters to ps: weights as PyTorch's default
// initialisation (kaiming-uniform, U(±1/√fan-in)), which the reference
// keeps; BatchNorm γ = 1, β = 0. norms says which layers have a BatchNorm.
func newCNN(ps *nn.Params, name string, geoms []conv.Options, transposed bool, norms []bool, f64 bool, rng *rand.Rand) *CNN {
	c := &CNN{Transposed: transposed}
	for l, g := range geoms {
		g.Float64 = f64
		r, k, fan := 0, 0, 0
		if transposed {
			r, k = g.TransposedWeightShape()
			fan = g.TransposedFanIn()
		} else {
			r, k = g.WeightShape()
			fan = g.FanIn()
		}
		w := ps.Zero(fmt.Sprintf("%s.%d.weight", name, l), r, k)
		conv.DefaultInit(rng, w.Data, nil, fan)
		layer := CNNLayer{Geom: g, Weight: w}
		if norms[l] {
			ch := g.OutChannels
			n := &Norm{Gamma: ps.Zero(fmt.Sprintf("%s.%d.bn.weight", name, l), 1, ch),
				Beta: ps.Zero(fmt.Sprintf("%s.%d.bn.bias", name, l), 1, ch), State: conv.NewBatchNorm(ch)}
			conv.BatchNormInit(n.Gamma.Data, n.Beta.Data)
			layer.Norm = n
		}
		c.Layers = append(c.Layers, layer)
	}
	return c
}

// NewEncoder is the reference's encoder: conv → LeakyReLU(0.2),
// (conv → BatchNorm → LeakyReLU(0.2)) × 2, conv to the latent (no
// activation).
func NewEncoder(ps *nn.Params, ndf int, f64 bool, rng *rand.Rand) *CNN {
	return newCNN(ps, "enc", encoderGeometry(ndf), false, []bool{false, true, true, false}, f64, rng)
}

// NewDecoder is the reference's decoder: (transposed conv → BatchNorm →
// ReLU) × 3, transposed conv → tanh.
func NewDecoder(ps *nn.Params, ndf int, f64 bool, rng *rand.Rand) *CNN {
	return newCNN(ps, "dec", decoderGeometry(ndf), true, []bool{true, true, true, false}, f64, rng)
}

// Apply runs the stack on x (R × C·H·W of the first layer's input).
func (c *CNN) Apply(n *nn.Net, x *autodiff.Node) *autodiff.Node {
	last := len(c.Layers) - 1
	for l, layer := range c.Layers {
		w := n.P(layer.Weight)
		if c.Transposed {
			x = conv.ConvTranspose2D(n.Graph, x, w, nil, layer.Geom)
		} else {
			x = conv.Conv2D(n.Graph, x, w, nil, layer.Geom)
		}
		slope := 0.2 // encoder: LeakyReLU(0.2)
		if c.Transposed {
			slope = 0 // decoder: ReLU
		}
		switch {
		case layer.Norm != nil:
			x = conv.BatchNorm2DLeakyReLU(n.Graph, x, n.P(layer.Norm.Gamma), n.P(layer.Norm.Beta), layer.Norm.State, slope)
		case l == last && c.Transposed:
			x = conv.Tanh(n.Graph, x)
		case l < last:
			x = conv.LeakyReLU(n.Graph, x, slope)
		}
	}
	return x
}

// Norms lists the stack's BatchNorms in order.
func (c *CNN) Norms() []*Norm {
	var out []*Norm
	for _, l := range c.Layers {
		if l.Norm != nil {
			out = append(out, l.Norm)
		}
	}
	return out
}
