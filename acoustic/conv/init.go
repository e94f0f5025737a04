package conv

import (
	"math"
	"math/rand"
)

// DefaultInit fills w and b (nil for none) as PyTorch's Conv2d and
// ConvTranspose2d reset_parameters do: kaiming_uniform_ with a = √5 on the
// weight, which is U(−1/√fanIn, 1/√fanIn), and the bias from the same range.
// fanIn is Options.FanIn for Conv2D and Options.TransposedFanIn for
// ConvTranspose2D. The same seed gives the same numbers (not PyTorch's).
func DefaultInit(rng *rand.Rand, w, b []float64, fanIn int) {
	bound := 1 / math.Sqrt(float64(fanIn))
	for i := range w {
		w[i] = bound * (2*rng.Float64() - 1)
	}
	for i := range b {
		b[i] = bound * (2*rng.Float64() - 1)
	}
}

// DCGANInit fills a convolution weight from N(0, 0.02²), the DCGAN
// initialisation, and zeroes the bias b (nil for none).
func DCGANInit(rng *rand.Rand, w, b []float64) {
	for i := range w {
		w[i] = 0.02 * rng.NormFloat64()
	}
	clear(b)
}

// DCGANBatchNormInit fills gamma from N(1, 0.02²) and zeroes beta, as the
// DCGAN initialisation does; PyTorch's own default is gamma 1, beta 0
// (BatchNormInit).
func DCGANBatchNormInit(rng *rand.Rand, gamma, beta []float64) {
	for i := range gamma {
		gamma[i] = 1 + 0.02*rng.NormFloat64()
	}
	clear(beta)
}

// BatchNormInit sets gamma to 1 and beta to 0, PyTorch's default.
func BatchNormInit(gamma, beta []float64) {
	for i := range gamma {
		gamma[i] = 1
	}
	clear(beta)
}
