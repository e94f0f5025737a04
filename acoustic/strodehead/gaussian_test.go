package strodehead

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/autodiff/gradcheck"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// The fused Gaussian term against its definition computed by hand, and its
// reverse pass (h̃, μ and a) against central differences.
func TestGaussianLogLik(t *testing.T) {
	const n, s = 7, 5
	rng := rand.New(rand.NewSource(3))
	param := func(name string, rows, cols int, scale float64) *optim.Param {
		p := optim.NewParam(name, rows, cols, optim.Free)
		for i := range p.Data {
			p.Data[i] = scale * rng.NormFloat64()
		}
		return p
	}
	h, mu, a := param("h", n, s, 1), param("mu", n, s, 1), param("a", n, s, 3)
	w := param("w", n, 1, 0)
	for r := range w.Data {
		w.Data[r] = float64(r%3) / 5 // some frames masked out
	}
	net := nn.NewNet()
	cost := gaussianLogLik(net, net.P(h), net.P(mu), net.P(a), net.P(w))
	ps, nodes := net.Bound()
	m, err := net.Compile(cost, nodes[:3]) // the weights are the mask: no gradient
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Run(); err != nil {
		t.Fatal(err)
	}
	want := 0.0
	for r := 0; r < n; r++ {
		for j := 0; j < s; j++ {
			i := r*s + j
			v := math.Log1p(math.Exp(a.Data[i])) + 1e-3
			d := h.Data[i] - mu.Data[i]
			want += w.Data[r] * (-0.5*math.Log(2*math.Pi*v) - d*d/(2*v)) / s
		}
	}
	if got := autodiff.Value(cost)[0]; math.Abs(got-want) > 1e-12*math.Abs(want) {
		t.Fatalf("log-likelihood %v, by hand %v", got, want)
	}
	gradcheck.Check(t, "gaussian", m, cost, ps[:3], 40)
}
