package seqvideo

import (
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/autodiff/gradcheck"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/acoustic/strode"
)

// Gradient check of the whole model, every variant, in float64: central
// differences with step fdStep against the reverse pass; the relative error
// |g − fd| / max(|g|, |fd|, fdFloor) must stay under gradcheck.Tol. The loss is a
// mean over ~25,000 pixels, so its roundoff (~1e-15) over 2·fdStep is
// ~1e-10 and the floor keeps entries whose gradient is ~0 from failing on
// that noise; a larger step (1e-4) crosses the kinks of LeakyReLU and ReLU
// (errors of 1–2% on convolution weights), a smaller one (1e-6) drowns the
// ODE weights' gradients (~1e-6) in roundoff.
const (
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
		gradientCheck(t, model, strode.VariantPaper)
		if model == NODE || model == STRODE {
			gradientCheck(t, model, strode.VariantPhaseState)
		}
		if model == STRODE {
			gradientCheck(t, model, VariantPose)
		}
	}
}

// gradientCheck checks one model and variant.
func gradientCheck(t *testing.T, model string, v strode.Variant) {
	t.Run(model+"/"+string(v), func(t *testing.T) {
		o := tinyOptions(model)
		o.Variant = v
		// phase-state: over 4 frames, its horizon complete, and a step of
		// 1e-7: its frames are drawn by bilinear sampling, piecewise linear
		// in the angle, and at 1e-5 some 50 of its ~70,000 samples cross a
		// pixel edge (errors of 1–7% on ω and Φ); it has no f_o whose small
		// gradients need the larger step (the roundoff over 2·1e-7, ~5e-9,
		// asks for a floor of 1e-5).
		n, step, floor := 3, fdStep, fdFloor
		if v == strode.VariantPhaseState || v == VariantPose {
			n, step, floor = 4, 1e-7, 1e-5
		}
		seed := int64(3)
		rng := rand.New(rand.NewSource(seed))
		m, err := New(o, rng)
		if err != nil {
			t.Fatal(err)
		}
		if m.TurnGain != nil {
			// At c = 1/ω = 4, the start, gaps are 4× larger and a step
			// of ω carries more bilinear samples of the noise frames
			// across pixel edges (6% on ω): the formulas are checked at
			// c = ω = 1.
			m.TurnGain.Data[0], m.Omega.Data[0] = 1, 1
		}
		if m.Boundary != nil {
			// The finite differences move t itself, so the reverse pass
			// must too: with sg(t), phase-state's gaps, which reach three
			// solves, differ by up to 1% on the encoder's weights.
			m.Boundary.FullGradient = true
		}
		bt, err := m.Build(2, n, true)
		if err != nil {
			t.Fatal(err)
		}
		if err := bt.Set(randomVideos(rng, 2, n)); err != nil {
			t.Fatal(err)
		}
		// Noise frames register at any turn up to ±π, which makes gaps of
		// 12 and turns of several radians, whose bilinear samples cross
		// many pixel edges within a step (errors of 4% on ω): use turns
		// of the data's size instead.
		for i := range bt.turn {
			bt.turn[i] = 0.2 + 0.6*rng.Float64()
		}
		if err := bt.Run(); err != nil {
			t.Fatal(err)
		}
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
		gradcheck.Compare(t, model+" "+string(v), bt.Params, grads, loss, gradcheck.Options{Step: step, Floor: floor, MaxPer: maxPer, Seed: 9})
	})
}
