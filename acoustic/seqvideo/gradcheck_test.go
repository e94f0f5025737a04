package seqvideo

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/sru"
)

// Gradient check of the whole model, every variant, in float64: central
// differences with step fdStep against the reverse pass; the relative error
// |g − fd| / max(|g|, |fd|, fdFloor) must stay under gradTol. The loss is a
// mean over ~25,000 pixels, so its roundoff (~1e-15) over 2·fdStep is
// ~1e-10 and the floor keeps entries whose gradient is ~0 from failing on
// that noise; a larger step (1e-4) crosses the kinks of LeakyReLU and ReLU
// (errors of 1–2% on convolution weights), a smaller one (1e-6) drowns the
// ODE weights' gradients (~1e-6) in roundoff.
const (
	gradTol = 1e-3
	fdStep  = 1e-5
	fdFloor = 1e-6
)

// tinyOptions is a model small enough for finite differences: ndf 1
// (latent 4), hidden sizes 5 and 6, float64 throughout, and w_kl = 0.5 so
// that Φ's and φ's gradients through the KL term are not lost under the
// floor.
func tinyOptions(model string) Options {
	o := DefaultOptions()
	o.Model, o.NDF, o.PhiHidden, o.ODEHidden, o.WKL, o.Float64 = model, 1, 5, 6, 0.5, true
	return o
}

// randomVideos are b videos of n frames of uniform random bytes.
func randomVideos(rng *rand.Rand, b, n int) [][]uint8 {
	out := make([][]uint8, b)
	for s := range out {
		out[s] = make([]uint8, n*FramePixels)
		for j := range out[s] {
			out[s][j] = uint8(rng.Intn(256))
		}
	}
	return out
}

func TestGradients(t *testing.T) {
	defer func(v bool) { sru.Float32Products = v }(sru.Float32Products)
	sru.Float32Products = false
	for _, model := range Models {
		t.Run(model, func(t *testing.T) {
			_, bt, _ := runBatch(t, tinyOptions(model), rand.New(rand.NewSource(3)), 2, 3, true)
			grads := make([][]float64, len(bt.Params))
			for i, p := range bt.Params {
				grads[i] = append([]float64(nil), p.Grad...)
			}
			loss := func() float64 {
				if err := bt.Machine.Run(); err != nil {
					t.Fatal(err)
				}
				return autodiff.Value(bt.Loss)[0]
			}
			maxPer := 6
			if testing.Short() {
				maxPer = 2
			}
			pick := rand.New(rand.NewSource(9))
			worst := 0.0
			for i, p := range bt.Params {
				idx := pick.Perm(len(p.Data))
				if len(idx) > maxPer {
					idx = idx[:maxPer]
				}
				for _, j := range idx {
					old := p.Data[j]
					p.Data[j] = old + fdStep
					up := loss()
					p.Data[j] = old - fdStep
					down := loss()
					p.Data[j] = old
					fd := (up - down) / (2 * fdStep)
					g := grads[i][j]
					rel := math.Abs(g-fd) / math.Max(math.Max(math.Abs(g), math.Abs(fd)), fdFloor)
					worst = math.Max(worst, rel)
					if rel > gradTol {
						t.Errorf("d/d%s[%d] = %.8g, finite difference %.8g (rel. error %.2g)", p.Name, j, g, fd, rel)
					}
				}
			}
			t.Logf("%s: worst relative error %.2g over %d parameters", model, worst, len(bt.Params))
		})
	}
}
