package conv

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

// Conv2D is PyTorch's Conv2d applied to the batch x (N × InChannels·H·W,
// channel-major) with the weight w (Options.WeightShape) and the bias b
// (1 × OutChannels, or nil for none): an N × OutChannels·OH·OW node (OH, OW
// from Options.OutSize). Errors (shapes that do not fit o) are kept in g.
func Conv2D(g *autodiff.Graph, x, w, b *autodiff.Node, o Options) *autodiff.Node {
	in := []*autodiff.Node{x, w}
	if b != nil {
		in = append(in, b)
	}
	if o.Float64 {
		return g.Fused("conv2d", &conv2d[float64]{o: o}, in...)
	}
	return g.Fused("conv2d", &conv2d[float32]{o: o}, in...)
}

// conv2d is the convolution as one GEMM over the whole batch: the column
// matrix of every image side by side (col, C·K·K × N·P for P output
// positions per image), Y = W·col (OutChannels × N·P), reordered into the
// batch's layout. The reverse pass is dWᵀ = col·dYᵀ, dcol = Wᵀ·dY scattered
// back by col2im, and db = the channel sums of dY.
type conv2d[T float] struct {
	o        Options
	n        int
	g        geom
	tab      []int32 // g.table(−1), for col2im
	gtab     []int32 // g.table(c·h·w), for im2col
	xr       []T     // im2col's rounded images
	col      []T     // the latest Forward's column matrix
	colValid bool
	w, y     []T // w rounded; Y, then dY (OutChannels × N·P)
	dw       []T
}

func (k *conv2d[T]) Shape(in [][2]int) (int, int, error) {
	if err := k.o.check(false); err != nil {
		return 0, 0, fmt.Errorf("conv2d: %w", err)
	}
	o := k.o
	if want := o.InChannels * o.Height * o.Width; in[0][1] != want {
		return 0, 0, fmt.Errorf("conv2d: input has %d columns, want %d×%d×%d = %d", in[0][1], o.InChannels, o.Height, o.Width, want)
	}
	if r, c := o.WeightShape(); in[1] != [2]int{r, c} {
		return 0, 0, fmt.Errorf("conv2d: weight is %d×%d, want %d×%d", in[1][0], in[1][1], r, c)
	}
	if len(in) > 2 && in[2] != [2]int{1, o.OutChannels} {
		return 0, 0, fmt.Errorf("conv2d: bias is %d×%d, want 1×%d", in[2][0], in[2][1], o.OutChannels)
	}
	k.n, k.g = in[0][0], o.geom(false)
	k.tab, k.gtab = k.g.table(-1), k.g.table(int32(k.g.c*k.g.h*k.g.w))
	return k.n, o.OutChannels * k.g.positions(), nil
}

func (k *conv2d[T]) alloc() {
	rows, np := k.g.rows(), k.n*k.g.positions()
	k.col = grow(k.col, rows*np)
	k.xr = grow(k.xr, k.n*(k.g.c*k.g.h*k.g.w+1))
	k.w = grow(k.w, k.o.OutChannels*rows)
	k.dw = grow(k.dw, k.o.OutChannels*rows)
	k.y = grow(k.y, k.o.OutChannels*np)
}

func (k *conv2d[T]) Forward(out []float64, in [][]float64) {
	k.alloc()
	rows, np, oc := k.g.rows(), k.n*k.g.positions(), k.o.OutChannels
	im2col(k.g, k.gtab, k.n, in[0], k.xr, k.col)
	k.colValid = true
	narrow(k.w, in[1])
	mm(false, false, oc, np, rows, k.w, rows, k.col, np, 0, k.y, np)
	var bias []float64
	if len(in) > 2 {
		bias = in[2]
	}
	fromChannelMajor(out, k.y, k.n, oc, k.g.positions(), bias)
}

func (k *conv2d[T]) Backward(din [][]float64, dout []float64, in [][]float64) {
	k.alloc()
	rows, pos, oc := k.g.rows(), k.g.positions(), k.o.OutChannels
	np := k.n * pos
	if !k.colValid { // the reverse pass reuses col for dcol
		im2col(k.g, k.gtab, k.n, in[0], k.xr, k.col)
	}
	// k.w is still the latest Forward's weight, rounded.
	toChannelMajor(k.y, dout, k.n, oc, pos)
	if len(din) > 2 {
		channelSums(din[2], dout, k.n, oc, pos)
	}
	// dWᵀ = col·dYᵀ rather than dW = dY·colᵀ: the same product, 20–30%
	// faster at the encoder's shapes (col packed as A, not transposed as
	// B), but not worth transposing the result back for a short inner
	// dimension (the 1×1 layer: N·P = N).
	if np >= transposedGradMin {
		mm(false, true, rows, oc, np, k.col, np, k.y, np, 0, k.dw, oc)
		widenTransposed(din[1], k.dw, rows, oc)
	} else {
		mm(false, true, oc, rows, np, k.y, np, k.col, np, 0, k.dw, rows)
		widen(din[1], k.dw)
	}
	if k.o.NoInputGradient {
		return
	}
	dcol := k.col
	k.colValid = false
	mm(true, false, rows, np, oc, k.w, rows, k.y, np, 0, dcol, np)
	col2im(k.g, k.tab, k.n, dcol, din[0], false)
}
