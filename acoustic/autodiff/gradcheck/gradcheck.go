// Package gradcheck checks the reverse pass of an autodiff graph against
// central finite differences, for the tests of the packages that build
// graphs (acoustic/nn, acoustic/strode).
package gradcheck

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/optim"
)

// Tol is the acceptance bound on the relative error of a gradient entry.
const Tol = 1e-3

// Check compares the machine's gradients of the scalar cost with central
// finite differences (step 1e-6) for every parameter, at most maxPer
// entries per parameter chosen at random (4 under -short). The relative
// error is |g − fd| / max(|g|, |fd|, 1e-4): the floor keeps entries whose
// gradient is ~0 from failing on rounding.
func Check(t testing.TB, name string, m *autodiff.Machine, cost *autodiff.Node, ps []*optim.Param, maxPer int) {
	t.Helper()
	if err := m.Run(); err != nil {
		t.Fatal(err)
	}
	grads := make([][]float64, len(ps))
	for i := range ps {
		grads[i] = append([]float64(nil), m.Grad(i)...)
	}
	if testing.Short() {
		maxPer = min(maxPer, 4)
	}
	loss := func() float64 {
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		return autodiff.Value(cost)[0]
	}
	Compare(t, name, ps, grads, loss, Options{Step: 1e-6, Floor: 1e-4, MaxPer: maxPer, Seed: 99})
}

// Options says how Compare samples and judges: the central-difference step,
// the floor of the relative error's denominator, the entries per parameter
// (chosen at random from Seed), or with Every > 0 instead about Every entries
// evenly spread: 0, s, 2s, … with s = 1 + len/Every (every entry of a small
// parameter, the same ones on every run).
type Options struct {
	Step, Floor float64
	MaxPer      int
	Seed        int64
	Every       int
}

// Compare checks grads[i] (the reverse pass's d loss/d ps[i]) against
// central differences of loss() at the entries o chooses of every
// parameter: the relative error |g − fd| / max(|g|, |fd|, o.Floor) must stay
// under Tol. It returns the worst relative error.
func Compare(t testing.TB, name string, ps []*optim.Param, grads [][]float64, loss func() float64, o Options) float64 {
	t.Helper()
	rng := rand.New(rand.NewSource(o.Seed))
	worst := 0.0
	for i, p := range ps {
		var idx []int
		if o.Every > 0 {
			for j := 0; j < len(p.Data); j += 1 + len(p.Data)/o.Every {
				idx = append(idx, j)
			}
		} else if idx = rng.Perm(len(p.Data)); len(idx) > o.MaxPer {
			idx = idx[:o.MaxPer]
		}
		for _, j := range idx {
			old := p.Data[j]
			p.Data[j] = old + o.Step
			up := loss()
			p.Data[j] = old - o.Step
			down := loss()
			p.Data[j] = old
			fd := (up - down) / (2 * o.Step)
			g := grads[i][j]
			rel := math.Abs(g-fd) / math.Max(math.Max(math.Abs(g), math.Abs(fd)), o.Floor)
			worst = math.Max(worst, rel)
			if rel > Tol {
				t.Errorf("%s: d/d%s[%d] = %.8g, finite difference %.8g (rel. error %.2g)", name, p.Name, j, g, fd, rel)
			}
		}
	}
	t.Logf("%s: worst relative error %.2g over %d parameters", name, worst, len(ps))
	return worst
}
