package am

import (
	"math"
	"math/rand"
	"testing"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/strode-asr/strode/acoustic/sru"
)

// TestXentFloat32Exp: the cross-entropy and its gradient with float32
// exponentials (training) against math.Exp (the gradient checks' float64
// graph), on logits spread over ±40 with a padded frame and label
// smoothing: 1e-6 relative for the loss, 1e-6 of the largest entry for the
// gradient (37 pdfs: the vector path and the scalar tail).
func TestXentFloat32Exp(t *testing.T) {
	defer func(v bool) { sru.Float32Products = v }(sru.Float32Products)
	const n, p = 7, 37
	rng := rand.New(rand.NewSource(3))
	l := make([]float64, n*p)
	for j := range l {
		l[j] = 20 * rng.NormFloat64()
	}
	y, w := make([]float64, n), make([]float64, n)
	for r := range y {
		y[r], w[r] = float64(rng.Intn(p)), 1
	}
	w[3] = 0
	val := func(d []float64, rows, cols int) gorgonia.Value {
		return tensor.New(tensor.WithShape(rows, cols), tensor.WithBacking(append([]float64(nil), d...)))
	}
	var loss [2]float64
	var grad [2][]float64
	for i, f32 := range []bool{false, true} {
		sru.Float32Products = f32
		o := xentOp{N: n, P: p, Smooth: 0.1}
		v, err := o.Do(val(l, n, p), val(y, n, 1), val(w, n, 1))
		if err != nil {
			t.Fatal(err)
		}
		loss[i] = v.Data().([]float64)[0]
		g, err := xentGradOp(o).Do(val(l, n, p), val(y, n, 1), val(w, n, 1), val([]float64{1.5}, 1, 1))
		if err != nil {
			t.Fatal(err)
		}
		grad[i] = g.Data().([]float64)
	}
	if d := math.Abs(loss[0] - loss[1]); d > 1e-6*math.Abs(loss[0]) {
		t.Errorf("loss: math.Exp %.10g, float32 exp %.10g", loss[0], loss[1])
	}
	scale := 0.0
	for _, v := range grad[0] {
		scale = math.Max(scale, math.Abs(v))
	}
	for j := range grad[0] {
		if d := math.Abs(grad[0][j] - grad[1][j]); d > 1e-6*scale {
			t.Errorf("gradient[%d]: math.Exp %g, float32 exp %g", j, grad[0][j], grad[1][j])
		}
	}
	for j := 3 * p; j < 4*p; j++ {
		if grad[1][j] != 0 {
			t.Fatalf("padded frame has gradient %g", grad[1][j])
		}
	}
}
