package autodiff

import (
	"math"
	"slices"
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

// TestColumns: two blocks of columns of one matrix, used by different
// terms, give the block's values and scatter their gradients back into the
// right columns (and nothing into the columns neither takes).
func TestColumns(t *testing.T) {
	g := New()
	a := g.Param("a", []float64{1, 2, 3, 4, 5, 6, 7, 8}, 2, 4)
	left, right := g.Columns(a, 0, 2), g.Columns(a, 3, 4)
	s := g.Sum(g.Add(g.Scale(g.Sum(left), 2), g.Scale(g.Sum(g.Square(right)), 1)))
	m, err := g.Compile(s, []*Node{a})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(); err != nil {
		t.Fatal(err)
	}
	if got, want := Value(left), []float64{1, 2, 5, 6}; !slices.Equal(got, want) {
		t.Errorf("left %v, want %v", got, want)
	}
	if got, want := Value(s)[0], 2*(1+2+5+6)+16+64.0; got != want {
		t.Errorf("sum %v, want %v", got, want)
	}
	if got, want := m.Grad(0), []float64{2, 2, 0, 8, 2, 2, 0, 16}; !slices.Equal(got, want) {
		t.Errorf("gradient %v, want %v", got, want)
	}
	if g.Columns(a, 2, 5); g.Err() == nil {
		t.Error("columns 2…5 of a 2×4 matrix: no error")
	}
}
