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

// The float32 head entry (headIn: h0 = e·P and b(z) in one node) against
// the graph's float64 e·P and boundaryZ that the gradient checks verify,
// for both forms of b(z): values and the gradients of e, P and b(z)'s
// weights to 1e-5 of the largest of each (float32 products over H = 24 and
// h = 7; measured: below 6e-7).
func TestHeadInMatchesFloat64(t *testing.T) {
	defer func(v bool) { sru.Float32Products = v }(sru.Float32Products)
	for _, phiZ := range []string{PhiZNonPos, PhiZFree} {
		t.Run(phiZ, func(t *testing.T) {
			o := tinyOptions(KindSTRODE)
			o.SRU.Hidden, o.ODEState, o.PhiHidden, o.PhiZ = 24, 10, 7, phiZ
			m, err := New(o, 4)
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewSource(6))
			for _, p := range m.Params.List {
				if p.Rows == 1 && p.Cols > 1 {
					for j := range p.Data {
						p.Data[j] += 0.3 * rng.NormFloat64()
					}
				}
			}
			const n = 30
			e := optim.NewParam("e", n, o.SRU.OutDim(), optim.Free)
			for i := range e.Data {
				e.Data[i] = rng.NormFloat64()
			}
			r1, r2 := make([]float64, n*o.ODEState), make([]float64, n)
			for i := range r1 {
				r1[i] = rng.NormFloat64()
			}
			for i := range r2 {
				r2[i] = rng.NormFloat64()
			}
			var vals [2][]float64
			var grads [2]map[string][]float64
			for i, f32 := range []bool{false, true} {
				sru.Float32Products = f32
				net := nn.NewNet()
				h0, bz, err := m.headEntry(net, net.P(e))
				if err != nil {
					t.Fatal(err)
				}
				cost := net.Add(net.Sum(net.Mul(h0, net.Const("r1", r1, n, o.ODEState))), net.Sum(net.Mul(bz, net.Const("r2", r2, n, 1))))
				ps, nodes := net.Bound()
				mach, err := net.Compile(cost, nodes)
				if err != nil {
					t.Fatal(err)
				}
				if err := mach.Run(); err != nil {
					t.Fatal(err)
				}
				vals[i] = append(append([]float64(nil), autodiff.Value(h0)...), autodiff.Value(bz)...)
				grads[i] = map[string][]float64{}
				for j, p := range ps {
					grads[i][p.Name] = append([]float64(nil), mach.Grad(j)...)
				}
				mach.Close()
			}
			closeTo(t, "values", vals[0], vals[1], 1e-5)
			if len(grads[0]) != len(grads[1]) {
				t.Fatalf("float64 has %d parameters, float32 %d", len(grads[0]), len(grads[1]))
			}
			for name, g := range grads[0] {
				closeTo(t, name, g, grads[1][name], 1e-5)
			}
		})
	}
}

// closeTo fails when b differs from a by more than tol of a's largest entry.
func closeTo(t *testing.T, what string, a, b []float64, tol float64) {
	t.Helper()
	scale := 0.0
	for _, v := range a {
		scale = math.Max(scale, math.Abs(v))
	}
	if scale == 0 {
		t.Errorf("%s: all zero", what)
		return
	}
	worst := 0.0
	for k := range a {
		worst = math.Max(worst, math.Abs(a[k]-b[k])/scale)
	}
	if worst > tol {
		t.Errorf("%s: float32 differs by %.2g of the largest (%g), over %g", what, worst, scale, tol)
	}
	t.Logf("%s (%d values): %.2g", what, len(a), worst)
}
