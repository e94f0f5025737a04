package autodiff

import (
	"math"
	"testing"
)

// TestReuseAndBroadcast checks that overwriting an input slice changes the
// next run, that row/column broadcasts give the right values and gradients,
// and that StopGradient blocks the gradient.
func TestReuseAndBroadcast(t *testing.T) {
	g := New()
	x, xd := g.Input("x", 2, 3)
	r := g.Param("r", []float64{1, 2, 3}, 1, 3)
	c := g.Param("c", []float64{10, 20}, 2, 1)
	y := g.MulCol(g.AddRow(x, r), c)
	s := g.Sum(g.Add(y, g.StopGradient(g.Scale(y, 5))))
	m, err := g.Compile(s, []*Node{r, c})
	if err != nil {
		t.Fatal(err)
	}
	for run, base := range []float64{0, 1} {
		for i := range xd {
			xd[i] = base + float64(i)
		}
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		want := 0.0
		for i := 0; i < 2; i++ {
			for j := 0; j < 3; j++ {
				want += 6 * (xd[i*3+j] + float64(j+1)) * []float64{10, 20}[i]
			}
		}
		if got := Value(s)[0]; math.Abs(got-want) > 1e-9 {
			t.Errorf("run %d: sum %v, want %v", run, got, want)
		}
		gr := m.Grad(0)
		for j := 0; j < 3; j++ {
			if math.Abs(gr[j]-30) > 1e-9 {
				t.Errorf("run %d: d/dr[%d] = %v, want 30", run, j, gr[j])
			}
		}
		gc := m.Grad(1)
		for i := 0; i < 2; i++ {
			w := 0.0
			for j := 0; j < 3; j++ {
				w += xd[i*3+j] + float64(j+1)
			}
			if math.Abs(gc[i]-w) > 1e-9 {
				t.Errorf("run %d: d/dc[%d] = %v, want %v", run, i, gc[i], w)
			}
		}
	}
}
