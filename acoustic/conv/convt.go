package conv

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

// ConvTranspose2D is PyTorch's ConvTranspose2d (no output_padding, groups or
// dilation) applied to the batch x (N × InChannels·H·W) with the weight w
// (Options.TransposedWeightShape) and the bias b (1 × OutChannels, or nil):
// an N × OutChannels·OH·OW node, OH = (H − 1)·Stride − 2·Padding +
// KernelSize (Options.TransposedOutSize). Errors are kept in g.
func ConvTranspose2D(g *autodiff.Graph, x, w, b *autodiff.Node, o Options) *autodiff.Node {
	in := []*autodiff.Node{x, w}
	if b != nil {
		in = append(in, b)
	}
	if o.Float64 {
		return g.Fused("conv-transpose2d", &convTranspose2d[float64]{o: o}, in...)
	}
	return g.Fused("conv-transpose2d", &convTranspose2d[float32]{o: o}, in...)
}

// convTranspose2d is the adjoint of the convolution from the output image
// back to the input positions (geom(true)): with the input as an
// InChannels × N·H·W matrix X, col = Wᵀ·X (OutChannels·K·K × N·H·W) is
// scattered into the output by col2im. The reverse pass gathers
// dcol = im2col(dY), then dWᵀ = dcol·Xᵀ and dX = W·dcol.
type convTranspose2d[T float] struct {
	o       Options
	n       int
	g       geom
	tab     []int32 // g.table(−1), for col2im
	gtab    []int32 // g.table(c·h·w), for im2col
	xr      []T     // im2col's rounded images
	x       []T     // the latest Forward's input, InChannels × N·H·W
	w       []T
	col, dx []T
	dw      []T
}

func (k *convTranspose2d[T]) Shape(in [][2]int) (int, int, error) {
	if err := k.o.check(true); err != nil {
		return 0, 0, fmt.Errorf("conv-transpose2d: %w", err)
	}
	o := k.o
	if want := o.InChannels * o.Height * o.Width; in[0][1] != want {
		return 0, 0, fmt.Errorf("conv-transpose2d: input has %d columns, want %d×%d×%d = %d", in[0][1], o.InChannels, o.Height, o.Width, want)
	}
	if r, c := o.TransposedWeightShape(); in[1] != [2]int{r, c} {
		return 0, 0, fmt.Errorf("conv-transpose2d: weight is %d×%d, want %d×%d", in[1][0], in[1][1], r, c)
	}
	if len(in) > 2 && in[2] != [2]int{1, o.OutChannels} {
		return 0, 0, fmt.Errorf("conv-transpose2d: bias is %d×%d, want 1×%d", in[2][0], in[2][1], o.OutChannels)
	}
	k.n, k.g = in[0][0], o.geom(true)
	k.tab, k.gtab = k.g.table(-1), k.g.table(int32(k.g.c*k.g.h*k.g.w))
	return k.n, o.OutChannels * k.g.h * k.g.w, nil
}

func (k *convTranspose2d[T]) alloc() {
	rows, nq, ic := k.g.rows(), k.n*k.g.positions(), k.o.InChannels
	k.x = grow(k.x, ic*nq)
	k.w = grow(k.w, ic*rows)
	k.dw = grow(k.dw, ic*rows)
	k.col = grow(k.col, rows*nq)
	k.xr = grow(k.xr, k.n*(k.g.c*k.g.h*k.g.w+1))
	k.dx = grow(k.dx, ic*nq)
}

func (k *convTranspose2d[T]) Forward(out []float64, in [][]float64) {
	k.alloc()
	rows, q, ic := k.g.rows(), k.g.positions(), k.o.InChannels
	nq := k.n * q
	toChannelMajor(k.x, in[0], k.n, ic, q)
	narrow(k.w, in[1])
	mm(true, false, rows, nq, ic, k.w, rows, k.x, nq, 0, k.col, nq)
	tiles := k.g.tiles()
	if !tiles {
		clear(out)
	}
	col2im(k.g, k.tab, k.n, k.col, out, tiles)
	if len(in) > 2 {
		addChannels(out, in[2], k.n, k.o.OutChannels, k.g.h*k.g.w)
	}
}

func (k *convTranspose2d[T]) Backward(din [][]float64, dout []float64, in [][]float64) {
	k.alloc()
	rows, q, ic := k.g.rows(), k.g.positions(), k.o.InChannels
	nq := k.n * q
	// k.x and k.w are still the latest Forward's input and weight.
	im2col(k.g, k.gtab, k.n, dout, k.xr, k.col)
	if nq >= transposedGradMin { // dWᵀ, as conv2d's
		mm(false, true, rows, ic, nq, k.col, nq, k.x, nq, 0, k.dw, ic)
		widenTransposed(din[1], k.dw, rows, ic)
	} else {
		mm(false, true, ic, rows, nq, k.x, nq, k.col, nq, 0, k.dw, rows)
		widen(din[1], k.dw)
	}
	if len(din) > 2 {
		channelSums(din[2], dout, k.n, k.o.OutChannels, k.g.h*k.g.w)
	}
	if !k.o.NoInputGradient {
		mm(false, false, ic, nq, rows, k.w, rows, k.col, nq, 0, k.dx, nq)
		fromChannelMajor(din[0], k.dx, k.n, ic, q, nil)
	}
}

// addChannels adds b[ci] to plane ci of the n images x.
func addChannels(x, b []float64, n, c, p int) {
	for i := 0; i < n; i++ {
		for ci := 0; ci < c; ci++ {
			for j := range x[(i*c+ci)*p : (i*c+ci+1)*p] {
				x[(i*c+ci)*p+j] += b[ci]
			}
		}
	}
}
