// Package conv is the convolutional layers of the Rotating MNIST models (the
// DCGAN-style CNN encoder and transposed-convolution decoder of the STRODE
// reference code) as fused graph operations over acoustic/autodiff: Conv2D and
// ConvTranspose2D with PyTorch's semantics and weight layouts, BatchNorm2D
// with PyTorch's training and evaluation modes and running statistics
// (BatchNorm2DLeakyReLU: with the activation that follows it, one node),
// and LeakyReLU, ReLU and Tanh. A batch of N images of C channels of H×W is
// an N × C·H·W matrix, channel-major (PyTorch's NCHW, row-major). A
// convolution is lowered to one GEMM over the whole batch: im2col lays
// every image's patches side by side (C·K·K × N·positions, through a
// per-layer table of pixel offsets), so even the 4×4 and 1×1 layers make one
// product wide enough for the SIMD kernels, and col2im scatters the other
// way (the convolution's input gradient, the transposed convolution's
// output). Products run in float32 through internal/gemm, as the reference
// trains, with float64 at the graph's interface; Options.Float64 runs them
// in float64 instead, which the gradient checks use, and
// Options.NoInputGradient skips the input gradient of a layer fed by data.
// im2col, col2im and the layout changes are split over the batch across
// gemm.Threads goroutines; results do not depend on the thread count. The
// running statistics of a BatchNorm are state that a training-mode forward
// pass updates (see BatchNorm, Stats, SetStats). DefaultInit and DCGANInit
// are PyTorch's and DCGAN's initialisations, seeded.
package conv
