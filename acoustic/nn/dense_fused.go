package nn

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/optim"
)

// Act is the activation after a layer of a fused dense stack.
type Act int

// Activations of a fused dense stack.
const (
	ActNone Act = iota
	ActReLU
	ActTanh
)

// DenseLayer is one layer of a fused dense stack, y = act(x·W + b), without
// the bias when B is nil.
type DenseLayer struct {
	W, B *optim.Param
	Act  Act
}

// FusedDense is the stack of layers over the batch x (R×in) as one fused
// graph node named name, with a hand-written reverse pass: the same values
// as the graph operations to rounding, one node instead of three or four
// per layer.
func FusedDense(n *Net, name string, x *autodiff.Node, layers ...DenseLayer) *autodiff.Node {
	k := &denseStack{}
	in := []*autodiff.Node{x}
	for _, l := range layers {
		k.layers = append(k.layers, denseLayer{bias: l.B != nil, act: l.Act})
		in = append(in, n.P(l.W))
		if l.B != nil {
			in = append(in, n.P(l.B))
		}
	}
	return n.Fused(name, k, in...)
}

// ApplyFused is Apply (ReLU after every layer) as one fused graph node.
func (m *MLP) ApplyFused(n *Net, x *autodiff.Node) *autodiff.Node {
	layers := make([]DenseLayer, len(m.Layers))
	for i, l := range m.Layers {
		layers[i] = DenseLayer{W: l.W, B: l.B, Act: ActReLU}
	}
	return FusedDense(n, "mlp", x, layers...)
}

// denseLayer is y = act(x·W [+ b]).
type denseLayer struct {
	bias bool
	act  Act
}

// denseStack is the kernel of a stack of dense layers over a batch of rows:
// the inputs are x, then each layer's W (in×out) and, with bias, b (1×out).
// Forward keeps every layer's output; Backward is, per layer from the last,
// d pre = d y ⊙ act'(y) (ReLU: y > 0; tanh: 1 − y²), d W += xᵀ·d pre,
// d b += 1ᵀ·d pre, d x = d pre·Wᵀ.
type denseStack struct {
	layers []denseLayer
	rows   int
	dims   []int       // widths: input, then each layer's output (from Shape)
	ys     [][]float64 // each layer's output, R×out
	dy, dx []float64
}

func (k *denseStack) Shape(in [][2]int) (int, int, error) {
	rows, cols := in[0][0], in[0][1]
	i := 1
	for l, layer := range k.layers {
		if i >= len(in) || in[i][0] != cols {
			return 0, 0, fmt.Errorf("dense stack: layer %d: weight shape does not follow %d columns", l, cols)
		}
		cols = in[i][1]
		i++
		if layer.bias {
			if i >= len(in) || in[i] != [2]int{1, cols} {
				return 0, 0, fmt.Errorf("dense stack: layer %d: bias is not 1×%d", l, cols)
			}
			i++
		}
	}
	if i != len(in) {
		return 0, 0, fmt.Errorf("dense stack: %d inputs, want %d", len(in), i)
	}
	k.rows, k.dims = rows, []int{in[0][1]}
	i = 1
	for _, layer := range k.layers {
		k.dims = append(k.dims, in[i][1])
		i++
		if layer.bias {
			i++
		}
	}
	return rows, cols, nil
}

// weights returns layer l's W, b (nil without bias) and their indices in in.
func (k *denseStack) weights(in [][]float64, l int) (w, b []float64, wi, bi int) {
	i := 1
	for j := 0; j < l; j++ {
		i++
		if k.layers[j].bias {
			i++
		}
	}
	wi, bi = i, -1
	if k.layers[l].bias {
		bi = i + 1
		b = in[bi]
	}
	return in[wi], b, wi, bi
}

func (k *denseStack) Forward(out []float64, in [][]float64) {
	x, rows := in[0], k.rows
	if len(k.ys) != len(k.layers) {
		k.ys = make([][]float64, len(k.layers))
		for l := range k.ys {
			k.ys[l] = make([]float64, rows*k.dims[l+1])
		}
	}
	for l, layer := range k.layers {
		w, b, _, _ := k.weights(in, l)
		nin, cols := k.dims[l], k.dims[l+1]
		y := k.ys[l]
		for r := 0; r < rows; r++ {
			yr := y[r*cols : (r+1)*cols]
			if b != nil {
				copy(yr, b)
			} else {
				clear(yr)
			}
			for p, xv := range x[r*nin : (r+1)*nin] {
				for j, wv := range w[p*cols : (p+1)*cols] {
					yr[j] += xv * wv
				}
			}
			switch layer.act {
			case ActReLU:
				for j, v := range yr {
					yr[j] = math.Max(v, 0)
				}
			case ActTanh:
				for j, v := range yr {
					yr[j] = math.Tanh(v)
				}
			}
		}
		x = y
	}
	copy(out, x)
}

func (k *denseStack) Backward(din [][]float64, dout []float64, in [][]float64) {
	rows := k.rows
	dy := append(k.dy[:0], dout...)
	for l := len(k.layers) - 1; l >= 0; l-- {
		layer := k.layers[l]
		w, _, wi, bi := k.weights(in, l)
		y := k.ys[l]
		x := in[0]
		if l > 0 {
			x = k.ys[l-1]
		}
		nin, cols := k.dims[l], k.dims[l+1]
		switch layer.act {
		case ActReLU:
			for i, v := range y {
				if v <= 0 {
					dy[i] = 0
				}
			}
		case ActTanh:
			for i, v := range y {
				dy[i] *= 1 - v*v
			}
		}
		dw := din[wi]
		for r := 0; r < rows; r++ {
			dyr := dy[r*cols : (r+1)*cols]
			if bi >= 0 {
				for j, v := range dyr {
					din[bi][j] += v
				}
			}
			for p, xv := range x[r*nin : (r+1)*nin] {
				for j, v := range dyr {
					dw[p*cols+j] += xv * v
				}
			}
		}
		// d x = d pre·Wᵀ: into din[0] for the first layer, else the next dy
		var dx []float64
		if l == 0 {
			dx = din[0]
		} else {
			k.dx = grow64(k.dx, rows*nin)
			clear(k.dx)
			dx = k.dx
		}
		for r := 0; r < rows; r++ {
			dyr := dy[r*cols : (r+1)*cols]
			for p := 0; p < nin; p++ {
				s := 0.0
				for j, v := range dyr {
					s += v * w[p*cols+j]
				}
				dx[r*nin+p] += s
			}
		}
		if l > 0 {
			dy = append(dy[:0], dx...)
		}
	}
	k.dy = dy
}

func grow64(buf []float64, n int) []float64 {
	if cap(buf) < n {
		return make([]float64, n)
	}
	return buf[:n]
}
