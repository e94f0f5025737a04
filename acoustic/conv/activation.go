package conv

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

// LeakyReLU is max(x, 0) + slope·min(x, 0), element-wise (PyTorch's
// LeakyReLU(slope); the DCGAN encoder's slope is 0.2).
func LeakyReLU(g *autodiff.Graph, x *autodiff.Node, slope float64) *autodiff.Node {
	return g.Fused("leaky-relu", leakyReLU{slope}, x)
}

// ReLU is max(x, 0), element-wise: autodiff.Relu as one fused node (one
// output and no mask tensor per run, which is what the decoder's 64×64
// planes pay for in gorgonia's operation).
func ReLU(g *autodiff.Graph, x *autodiff.Node) *autodiff.Node {
	return g.Fused("relu", leakyReLU{0}, x)
}

// Tanh is tanh(x), element-wise, as one fused node (see ReLU).
func Tanh(g *autodiff.Graph, x *autodiff.Node) *autodiff.Node {
	return g.Fused("tanh", &tanhKernel{}, x)
}

func sameShape(name string, in [][2]int) (int, int, error) {
	if len(in) != 1 {
		return 0, 0, fmt.Errorf("%s: %d inputs, want 1", name, len(in))
	}
	return in[0][0], in[0][1], nil
}

type leakyReLU struct{ slope float64 }

func (k leakyReLU) Shape(in [][2]int) (int, int, error) { return sameShape("leaky-relu", in) }

// negScale is 1 for x > 0 and slope otherwise, without a branch (the signs
// of activations are as good as random, and a mispredicted branch per
// element costs more than the arithmetic). x = 0 takes the slope, as
// PyTorch's gradient does; −0 too.
func negScale(x, slope float64) float64 {
	// x > 0 iff its bits, as an integer, are positive: 0 < b, so −b < 0.
	b := math.Float64bits(x)
	pos := float64((-b >> 63) &^ (b >> 63))
	return slope + (1-slope)*pos
}

func (k leakyReLU) Forward(out []float64, in [][]float64) {
	x := in[0]
	out = out[:len(x)]
	for i, v := range x {
		out[i] = v * negScale(v, k.slope)
	}
}

func (k leakyReLU) Backward(din [][]float64, dout []float64, in [][]float64) {
	x, dx := in[0], din[0]
	dout, dx = dout[:len(x)], dx[:len(x)]
	for i, v := range x {
		dx[i] += dout[i] * negScale(v, k.slope)
	}
}

// tanhKernel keeps its output for Backward: d x = d y·(1 − y²).
type tanhKernel struct{ y []float64 }

func (*tanhKernel) Shape(in [][2]int) (int, int, error) { return sameShape("tanh", in) }

func (k *tanhKernel) Forward(out []float64, in [][]float64) {
	k.y = grow(k.y, len(in[0]))
	for i, v := range in[0] {
		k.y[i] = math.Tanh(v)
	}
	copy(out, k.y)
}

func (k *tanhKernel) Backward(din [][]float64, dout []float64, in [][]float64) {
	dx := din[0][:len(k.y)]
	for i, y := range k.y {
		dx[i] += dout[i] * (1 - y*y)
	}
}
