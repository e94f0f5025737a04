package ode

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/graph"
)

// TestFusedMatchesGraph compares the fused Euler node with the same steps
// built from graph operations, values and all gradients, at sizes that
// exercise the AVX2 kernel (D = 8, H = 100) and its edges (R = 45).
func TestFusedMatchesGraph(t *testing.T) {
	const r, d, h = 45, 8, 100
	rng := rand.New(rand.NewSource(1))
	rnd := func(n int, s float64) []float64 {
		x := make([]float64, n)
		for i := range x {
			x[i] = rng.NormFloat64() * s
		}
		return x
	}
	vals := [][]float64{rnd(r*d, 1), rnd(r, 0.5), rnd(d*h, 0.3), rnd(h, 0.1), rnd(h*h, 0.1), rnd(h, 0.1), rnd(h*d, 0.1), rnd(d, 0.1)}
	for i := range vals[1] {
		vals[1][i] = math.Abs(vals[1][i])
	}
	shapes := [][2]int{{r, d}, {r, 1}, {d, h}, {1, h}, {h, h}, {1, h}, {h, d}, {1, d}}
	wts := rnd(r*d, 1)
	run := func(unfused bool) ([]float64, [][]float64) {
		g := graph.New()
		var ns []*graph.Node
		for i, v := range vals {
			ns = append(ns, g.Param("p", v, shapes[i][0], shapes[i][1]))
		}
		f := MLP{W0: ns[2], B0: ns[3], W1: ns[4], B1: ns[5], W2: ns[6], B2: ns[7]}
		out := Solver{Opts: Options{Method: Euler, Steps: 10, Unfused: unfused}}.SolveMLP(g, f, ns[0], ns[1])
		cost := g.Sum(g.Mul(out, g.Const("w", wts, r, d)))
		m, err := g.Compile(cost, ns)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Run(); err != nil {
			t.Fatal(err)
		}
		var grads [][]float64
		for i := range ns {
			grads = append(grads, append([]float64(nil), m.Grad(i)...))
		}
		return append([]float64(nil), graph.Value(out)...), grads
	}
	fo, fg := run(false)
	uo, ug := run(true)
	for i := range fo {
		if math.Abs(fo[i]-uo[i]) > 1e-10 {
			t.Fatalf("output %d: fused %v, graph %v", i, fo[i], uo[i])
		}
	}
	for k := range fg {
		for i := range fg[k] {
			if math.Abs(fg[k][i]-ug[k][i]) > 1e-9*(1+math.Abs(ug[k][i])) {
				t.Fatalf("gradient of input %d [%d]: fused %v, graph %v", k, i, fg[k][i], ug[k][i])
			}
		}
	}
}
