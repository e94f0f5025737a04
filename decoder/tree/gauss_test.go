package tree

import (
	"math"
	"testing"
)

func gauss(floor float32, xs ...float32) *GaussClusterable {
	g := NewGaussClusterable(1, floor)
	for _, x := range xs {
		g.AddStats([]float32{x}, 1)
	}
	return g
}

// Objf is count·(−½ var/floored − ½(log floored + log 2π)), worked by hand.
func TestGaussObjf(t *testing.T) {
	cases := []struct {
		name string
		g    *GaussClusterable
		want float64
	}{
		{"var 1", gauss(0.01, 1, 3), 2 * (-0.5 - 0.5*log2Pi)},
		{"var 0 floored", gauss(0.01, 2, 2), 2 * (-0.5 * (math.Log(float64(float32(0.01))) + log2Pi))},
		{"var 0.5", gauss(0.01, 1, 3, 2, 2), 4 * (-0.5 - 0.5*(math.Log(0.5)+log2Pi))},
		{"empty", NewGaussClusterable(1, 0.01), 0},
	}
	for _, c := range cases {
		if got := float64(c.g.Objf()); !near(got, c.want, 1e-6) {
			t.Errorf("%s: Objf = %.7g, want %.7g", c.name, got, c.want)
		}
	}
}

func TestGaussDistanceAndPlusMinus(t *testing.T) {
	a, b := gauss(0.01, 1, 3), gauss(0.01, 2, 2)
	want := float64(a.Objf()) + float64(b.Objf()) - float64(gauss(0.01, 1, 3, 2, 2).Objf())
	if got := float64(a.Distance(b)); !near(got, want, 1e-6) || got < 0 {
		t.Errorf("Distance = %g, want %g", got, want)
	}
	if a.ObjfPlus(b) != gauss(0.01, 1, 3, 2, 2).Objf() {
		t.Errorf("ObjfPlus %g != Objf of the sum %g", a.ObjfPlus(b), gauss(0.01, 1, 3, 2, 2).Objf())
	}
	sum := a.Copy()
	sum.Add(b)
	if sum.ObjfMinus(b) != a.Objf() {
		t.Errorf("ObjfMinus %g != %g", sum.ObjfMinus(b), a.Objf())
	}
	if d := a.Distance(a); d != 0 {
		t.Errorf("Distance to itself %g, want 0", d)
	}
}

// AddStats sums x and x² in double with the weight.
func TestGaussAddStats(t *testing.T) {
	g := NewGaussClusterable(2, 0.01)
	g.AddStats([]float32{1, -2}, 0.5)
	g.AddStats([]float32{3, 4}, 2)
	if g.Count != 2.5 || g.X[0] != 6.5 || g.X[1] != 7 || g.X2[0] != 18.5 || g.X2[1] != 34 {
		t.Errorf("stats %+v", g)
	}
}
