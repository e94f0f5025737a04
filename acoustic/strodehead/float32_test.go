package strodehead

import (
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/strode"
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/sru"
)

// compareFloat32 builds a graph twice — with the float64 graph operations
// that the gradient checks verify (sru.Float32Products off) and with the
// float32 kernels — runs each once and checks that the float32 build's
// values of outs and gradients of every bound parameter are within tol of
// the largest entry of each (the float64 build's) of the float64 ones.
func compareFloat32(t *testing.T, tol float64, build func(net *nn.Net) (cost *autodiff.Node, outs []*autodiff.Node)) {
	t.Helper()
	defer func(v bool) { sru.Float32Products = v }(sru.Float32Products)
	var vals [2][]float64
	var grads [2]map[string][]float64
	for i, f32 := range []bool{false, true} {
		sru.Float32Products = f32
		net := nn.NewNet()
		cost, outs := build(net)
		if err := net.Err(); err != nil {
			t.Fatal(err)
		}
		ps, nodes := net.Bound()
		mach, err := net.Compile(cost, nodes)
		if err != nil {
			t.Fatal(err)
		}
		if err := mach.Run(); err != nil {
			t.Fatal(err)
		}
		for _, o := range outs {
			vals[i] = append(vals[i], autodiff.Value(o)...)
		}
		grads[i] = map[string][]float64{}
		for j, p := range ps {
			grads[i][p.Name] = append([]float64(nil), mach.Grad(j)...)
		}
		mach.Close()
	}
	closeTo(t, "values", vals[0], vals[1], tol)
	if len(grads[0]) != len(grads[1]) {
		t.Fatalf("float64 has %d parameters, float32 %d", len(grads[0]), len(grads[1]))
	}
	for name, g := range grads[0] {
		closeTo(t, name, g, grads[1][name], tol)
	}
}

// closeTo fails when b differs from a by more than tol of a's largest entry.
func closeTo(t *testing.T, what string, a, b []float64, tol float64) {
	t.Helper()
	scale := 0.0
	for _, v := range a {
		scale = math.Max(scale, math.Abs(v))
	}
	if scale == 0 || len(a) != len(b) {
		t.Errorf("%s: all zero, or %d values against %d", what, len(a), len(b))
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

// testHead is a small head (the acoustic model's small preset's choices at
// toy sizes), changed by edit, with its parameters drawn from seed.
func testHead(seed int64, edit func(*Config)) (*Head, *nn.Params) {
	c := Config{In: 4, InputDim: 3, NumPdfs: 5, State: 3, ODEHidden: 4, PhiHidden: 4, PriorHidden: 4, PhiZ: PhiZNonPos,
		Eps0: 1e-6, WKL: 1e-3, WP: 1e-3, ODE: ode.DefaultOptions(), KL: strode.KLOptions{Epsilon: 0.1}}
	if edit != nil {
		edit(&c)
	}
	var ps nn.Params
	return New(&ps, c, rand.New(rand.NewSource(seed))), &ps
}
