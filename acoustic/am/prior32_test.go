package am

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
)

// The float32 prior network and Gaussian term (priorGaussian32) against the
// float64 layers and gaussianLogLik that the gradient checks verify: the
// same loss to 1e-6 (measured: 8e-8) and the same gradients of h̃ and every
// prior weight to 1e-5 of the largest of each (measured: below 1e-6), over
// a's whole range — from the variance's
// floor (a = −30: e^a rounds 1 + e^a to 1) through softplus's bend to large
// a — with some frames masked out.
func TestPriorGaussian32MatchesFloat64(t *testing.T) {
	defer func(v bool) { sru.Float32Products = v }(sru.Float32Products)
	o := tinyOptions(KindSTRODE)
	o.ODEState, o.PriorHidden, o.InputDim = 12, 9, 5
	m, err := New(o, 3)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(5))
	const n = 150 // more than gaussRowBlock: whole blocks and a partial one
	for j := range m.PriorVar.B.Data {
		m.PriorVar.B.Data[j] = -30 + 40*float64(j)/float64(o.ODEState-1)
	}
	h := optim.NewParam("h", n, o.ODEState, optim.Free)
	for i := range h.Data {
		h.Data[i] = rng.NormFloat64()
	}
	x := make([]float64, n*o.InputDim)
	for i := range x {
		x[i] = rng.NormFloat64()
	}
	w := make([]float64, n)
	for r := range w {
		w[r] = float64(r%4) / 60 // every fourth frame masked out
	}
	var loss [2]float64
	var grads [2][][]float64
	for i, f32 := range []bool{false, true} {
		sru.Float32Products = f32
		net := nn.NewNet()
		cost := m.priorLogLik(net, net.P(h), net.Const("x", x, n, o.InputDim), net.Const("w", w, n, 1))
		ps, nodes := net.Bound()
		mach, err := net.Compile(cost, nodes)
		if err != nil {
			t.Fatal(err)
		}
		if err := mach.Run(); err != nil {
			t.Fatal(err)
		}
		loss[i] = autodiff.Value(cost)[0]
		for j := range ps {
			grads[i] = append(grads[i], append([]float64(nil), mach.Grad(j)...))
		}
		mach.Close()
	}
	if d := math.Abs(loss[0] - loss[1]); d > 1e-6*math.Abs(loss[0]) {
		t.Errorf("loss: float64 %.9g, float32 %.9g", loss[0], loss[1])
	}
	for j := range grads[0] {
		scale := 0.0
		for _, v := range grads[0][j] {
			scale = math.Max(scale, math.Abs(v))
		}
		if scale == 0 {
			t.Fatalf("gradient %d is zero", j)
		}
		for k := range grads[0][j] {
			if d := math.Abs(grads[0][j][k] - grads[1][j][k]); d > 1e-5*scale {
				t.Errorf("gradient %d[%d]: float64 %g, float32 %g (scale %g)", j, k, grads[0][j][k], grads[1][j][k], scale)
				break
			}
		}
	}
}
