package conv

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/graph"
)

// LeakyReLU is max(x, 0) + slope·min(x, 0), element-wise (PyTorch's
// LeakyReLU(slope); the DCGAN encoder's slope is 0.2).
func LeakyReLU(g *graph.Graph, x *graph.Node, slope float64) *graph.Node {
	return g.Fused("leaky-relu", leakyReLU{slope}, x)
}

type leakyReLU struct{ slope float64 }

func (k leakyReLU) Shape(in [][2]int) (int, int, error) {
	if len(in) != 1 {
		return 0, 0, fmt.Errorf("leaky-relu: %d inputs, want 1", len(in))
	}
	return in[0][0], in[0][1], nil
}

func (k leakyReLU) Forward(out []float64, in [][]float64) {
	for i, v := range in[0] {
		if v < 0 {
			v *= k.slope
		}
		out[i] = v
	}
}

// Backward takes the slope at 0 as PyTorch does (x > 0 passes, else slope).
func (k leakyReLU) Backward(din [][]float64, dout []float64, in [][]float64) {
	for i, v := range in[0] {
		d := dout[i]
		if v <= 0 {
			d *= k.slope
		}
		din[0][i] += d
	}
}
