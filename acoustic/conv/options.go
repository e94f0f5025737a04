package conv

import "fmt"

// Options is the geometry of one convolution layer in PyTorch's names, for
// Conv2D and ConvTranspose2D alike. Height and Width are those of the layer's
// input image; the output size follows (OutSize, TransposedOutSize).
type Options struct {
	InChannels  int
	OutChannels int
	KernelSize  int // square kernels only, KernelSize × KernelSize
	Stride      int // 0 means 1
	Padding     int // zero padding on every side
	Height      int // input image height
	Width       int // input image width
	// Float64 computes the products in float64 (gonum's Dgemm) instead of
	// float32 through internal/gemm: slower, for gradient checks and as
	// the reference the float32 path is tested against.
	Float64 bool
	// NoInputGradient skips the gradient with respect to the input (left
	// at zero) for a layer fed by data, as PyTorch does for an input that
	// does not require grad: for the encoder's first layer that is a GEMM
	// and a col2im per step.
	NoInputGradient bool
}

func (o Options) stride() int {
	if o.Stride <= 0 {
		return 1
	}
	return o.Stride
}

// OutSize is the output image size of a convolution,
// ⌊(H + 2·Padding − KernelSize)/Stride⌋ + 1, as PyTorch's Conv2d.
func (o Options) OutSize() (h, w int) {
	s := o.stride()
	return (o.Height+2*o.Padding-o.KernelSize)/s + 1, (o.Width+2*o.Padding-o.KernelSize)/s + 1
}

// TransposedOutSize is the output image size of a transposed convolution,
// (H − 1)·Stride − 2·Padding + KernelSize, as PyTorch's ConvTranspose2d
// without output_padding.
func (o Options) TransposedOutSize() (h, w int) {
	s := o.stride()
	return (o.Height-1)*s - 2*o.Padding + o.KernelSize, (o.Width-1)*s - 2*o.Padding + o.KernelSize
}

// WeightShape is the weight matrix of Conv2D: OutChannels × (InChannels·K·K),
// PyTorch's (out, in, kH, kW) tensor in row-major order.
func (o Options) WeightShape() (rows, cols int) {
	return o.OutChannels, o.InChannels * o.KernelSize * o.KernelSize
}

// TransposedWeightShape is the weight matrix of ConvTranspose2D:
// InChannels × (OutChannels·K·K), PyTorch's (in, out, kH, kW) tensor.
func (o Options) TransposedWeightShape() (rows, cols int) {
	return o.InChannels, o.OutChannels * o.KernelSize * o.KernelSize
}

// FanIn is the fan-in PyTorch's initialisation uses for Conv2D:
// InChannels·K·K.
func (o Options) FanIn() int { return o.InChannels * o.KernelSize * o.KernelSize }

// TransposedFanIn is the fan-in PyTorch's initialisation uses for
// ConvTranspose2D, computed from its (in, out, kH, kW) weight as from any
// weight's dimension 1: OutChannels·K·K.
func (o Options) TransposedFanIn() int { return o.OutChannels * o.KernelSize * o.KernelSize }

// check reports options that describe no layer.
func (o Options) check(transposed bool) error {
	switch {
	case o.InChannels <= 0 || o.OutChannels <= 0:
		return fmt.Errorf("channels %d → %d, want positive", o.InChannels, o.OutChannels)
	case o.KernelSize <= 0:
		return fmt.Errorf("kernel size %d, want positive", o.KernelSize)
	case o.Stride < 0 || o.Padding < 0:
		return fmt.Errorf("stride %d, padding %d, want ≥ 0", o.Stride, o.Padding)
	case o.Height <= 0 || o.Width <= 0:
		return fmt.Errorf("input image %d×%d, want positive", o.Height, o.Width)
	}
	h, w := o.OutSize()
	if transposed {
		h, w = o.TransposedOutSize()
	}
	if h <= 0 || w <= 0 || (!transposed && (o.Height+2*o.Padding < o.KernelSize || o.Width+2*o.Padding < o.KernelSize)) {
		return fmt.Errorf("%d×%d input, kernel %d, stride %d, padding %d: no output", o.Height, o.Width, o.KernelSize, o.stride(), o.Padding)
	}
	return nil
}

// geom is the convolution over a c×h×w image with a k×k kernel, stride s and
// padding p, with oh×ow output positions: what im2col and col2im walk. A
// transposed convolution uses the geometry of the convolution it is the
// adjoint of (its output image, its input positions).
func (o Options) geom(transposed bool) geom {
	s := o.stride()
	if transposed {
		h, w := o.TransposedOutSize()
		return geom{c: o.OutChannels, h: h, w: w, k: o.KernelSize, s: s, p: o.Padding, oh: o.Height, ow: o.Width}
	}
	h, w := o.OutSize()
	return geom{c: o.InChannels, h: o.Height, w: o.Width, k: o.KernelSize, s: s, p: o.Padding, oh: h, ow: w}
}
