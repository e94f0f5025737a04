package ode

import (
	"fmt"
	"math"
	"math/rand"
	"syscall"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

// TestFusedMatchesGraph compares the fused Euler node, float64 and float32,
// with the same steps built from graph operations (float64), values and all
// gradients, at sizes that exercise the SIMD kernels (D = 8, H = 100) and
// their edges (R = 45). float64 agrees to rounding (1e-10 absolute on the
// values, 1e-9 relative on the gradients); float32 to 1e-5 absolute on the
// values and 1e-5 relative to the gradient's largest element (its rounding
// errors, 2⁻²⁴ per operation, accumulate over 10 steps of 100-term sums;
// measured 6e-7 and 2e-7, logged).
func TestFusedMatchesGraph(t *testing.T) {
	const r, d, h = 45, 8, 100
	rng := rand.New(rand.NewSource(1))
	vals := eulerInputs(rng, r, d, h)
	shapes := [][2]int{{r, d}, {r, 1}, {d, h}, {1, h}, {h, h}, {1, h}, {h, d}, {1, d}}
	wts := randNorm(rng, r*d, 1)
	run := func(unfused bool, dtype string) ([]float64, [][]float64) {
		g := autodiff.New()
		var ns []*autodiff.Node
		for i, v := range vals {
			ns = append(ns, g.Param("p", v, shapes[i][0], shapes[i][1]))
		}
		f := MLP{W0: ns[2], B0: ns[3], W1: ns[4], B1: ns[5], W2: ns[6], B2: ns[7]}
		out := Solver{Opts: Options{Method: Euler, Steps: 10, Unfused: unfused, DType: dtype}}.SolveMLP(g, f, ns[0], ns[1])
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
		return append([]float64(nil), autodiff.Value(out)...), grads
	}
	uo, ug := run(true, Float64)
	for _, tc := range []struct {
		dtype          string
		valTol, relTol float64 // absolute on values; gradients: relTol·(1+|g|) or relTol·max|g|
		maxRel         bool
	}{{Float64, 1e-10, 1e-9, false}, {Float32, 1e-5, 1e-5, true}} {
		fo, fg := run(false, tc.dtype)
		worstV, worstG := 0.0, 0.0
		for i := range fo {
			worstV = math.Max(worstV, math.Abs(fo[i]-uo[i]))
		}
		for k := range fg {
			scale := 0.0
			for _, v := range ug[k] {
				scale = math.Max(scale, math.Abs(v))
			}
			for i := range fg[k] {
				worstG = math.Max(worstG, math.Abs(fg[k][i]-ug[k][i])/scale)
			}
		}
		t.Logf("%s: max value error %.2g, max gradient error %.2g of the largest", tc.dtype, worstV, worstG)
		for i := range fo {
			if math.Abs(fo[i]-uo[i]) > tc.valTol {
				t.Fatalf("%s: output %d: fused %v, graph %v", tc.dtype, i, fo[i], uo[i])
			}
		}
		for k := range fg {
			scale := 0.0
			for _, v := range ug[k] {
				scale = math.Max(scale, math.Abs(v))
			}
			for i := range fg[k] {
				tol := tc.relTol * (1 + math.Abs(ug[k][i]))
				if tc.maxRel {
					tol = tc.relTol * scale
				}
				if math.Abs(fg[k][i]-ug[k][i]) > tol {
					t.Fatalf("%s: gradient of input %d [%d]: fused %v, graph %v", tc.dtype, k, i, fg[k][i], ug[k][i])
				}
			}
		}
	}
}

// BenchmarkFusedEuler is one Forward and Backward of the fused Euler node at
// the sine recipe's shapes (R = 450 rows, D = 8, K = 10) for the paper's
// f_o hidden size (8) and the reference code's (100).
func BenchmarkFusedEuler(b *testing.B) {
	const r, d = 450, 8
	for _, hid := range []int{8, 100} {
		for _, dtype := range []string{Float32, Float64} {
			rng := rand.New(rand.NewSource(1))
			rnd := func(n int, s float64) []float64 {
				x := make([]float64, n)
				for i := range x {
					x[i] = math.Abs(rng.NormFloat64() * s)
				}
				return x
			}
			in := [][]float64{rnd(r*d, 1), rnd(r, 0.5), rnd(d*hid, 0.3), rnd(hid, 0.1), rnd(hid*hid, 0.1), rnd(hid, 0.1), rnd(hid*d, 0.1), rnd(d, 0.1)}
			din := make([][]float64, len(in))
			for i, v := range in {
				din[i] = make([]float64, len(v))
			}
			out, dout := make([]float64, r*d), rnd(r*d, 1)
			var k interface {
				Forward([]float64, [][]float64)
				Backward([][]float64, []float64, [][]float64)
			} = &eulerMLP{steps: 10}
			if dtype == Float32 {
				k = &eulerMLP32{steps: 10}
			}
			b.Run(fmt.Sprintf("hidden=%d/%s", hid, dtype), func(b *testing.B) {
				cpu0 := cpuSeconds()
				for b.Loop() {
					k.Forward(out, in)
					for _, g := range din {
						clear(g)
					}
					k.Backward(din, dout, in)
				}
				b.ReportMetric(b.Elapsed().Seconds()/float64(b.N)*100, "s/epoch")
				b.ReportMetric((cpuSeconds()-cpu0)/float64(b.N)*100, "cpu-s/epoch")
			})
		}
	}
}

// cpuSeconds is the user+system CPU time of the process so far (the figure
// that counts on a machine shared with other jobs).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// TestRowKernels: eulerStep and scaleDot (AVX2 where the CPU has it) give
// the scalar loops' values bit for bit, for row lengths with and without a
// tail of the vector width.
func TestRowKernels(t *testing.T) {
	rng := rand.New(rand.NewSource(9))
	for _, n := range []int{1, 3, 4, 7, 8, 12, 64, 65, 100} {
		x, y := make([]float32, n), make([]float32, n)
		for j := range x {
			x[j], y[j] = float32(rng.NormFloat64()), float32(rng.NormFloat64())
		}
		a := float32(rng.Float64())
		got := make([]float32, n)
		eulerStep(got, x, y, a)
		for j := range x {
			if want := x[j] + a*y[j]; got[j] != want {
				t.Fatalf("eulerStep n=%d [%d]: %v, want %v", n, j, got[j], want)
			}
		}
		dot := scaleDot(got, x, y, a)
		for j := range x {
			if want := a * x[j]; got[j] != want {
				t.Fatalf("scaleDot n=%d [%d]: %v, want %v", n, j, got[j], want)
			}
		}
		if want := dot64(x, y); dot != want {
			t.Fatalf("scaleDot n=%d: dot %v, dot64 %v", n, dot, want)
		}
	}
}

// TestEulerRowBlocks: the float32 solve in blocks of 12 rows (45 rows: three
// whole blocks and a partial one) against one block of all rows. The values
// and the interval and state gradients are bit for bit the same (no product
// or tanh result depends on the rows around it); the weights' gradients sum
// the blocks in another order, within 1e-6 of their largest element.
func TestEulerRowBlocks(t *testing.T) {
	const r, d, h = 45, 8, 20
	rng := rand.New(rand.NewSource(3))
	in := eulerInputs(rng, r, d, h)
	dout := randNorm(rng, r*d, 1)
	run := func(block int) ([]float64, [][]float64) {
		k := &eulerMLP32{steps: 10, block: block}
		out := make([]float64, r*d)
		k.Forward(out, in)
		din := make([][]float64, len(in))
		for i, v := range in {
			din[i] = make([]float64, len(v))
		}
		k.Backward(din, dout, in)
		return out, din
	}
	o1, g1 := run(r)
	o2, g2 := run(12)
	for i := range o1 {
		if o1[i] != o2[i] {
			t.Fatalf("value %d: one block %v, blocks of 12 %v", i, o1[i], o2[i])
		}
	}
	for k := range g1 {
		scale := 0.0
		for _, v := range g1[k] {
			scale = math.Max(scale, math.Abs(v))
		}
		for i := range g1[k] {
			if d := math.Abs(g1[k][i] - g2[k][i]); d > 1e-6*scale || (k < 2 && d != 0) {
				t.Fatalf("gradient of input %d [%d]: one block %v, blocks of 12 %v", k, i, g1[k][i], g2[k][i])
			}
		}
	}
}

// randNorm is n draws of N(0, s²).
func randNorm(rng *rand.Rand, n int, s float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = rng.NormFloat64() * s
	}
	return x
}

// eulerInputs are random inputs of the fused Euler node for r rows of state
// size d and hidden size h: h0, the intervals (positive), W0, b0, W1, b1, W2, b2.
func eulerInputs(rng *rand.Rand, r, d, h int) [][]float64 {
	in := [][]float64{randNorm(rng, r*d, 1), randNorm(rng, r, 0.5), randNorm(rng, d*h, 0.3), randNorm(rng, h, 0.1),
		randNorm(rng, h*h, 0.1), randNorm(rng, h, 0.1), randNorm(rng, h*d, 0.1), randNorm(rng, d, 0.1)}
	for i := range in[1] {
		in[1][i] = math.Abs(in[1][i])
	}
	return in
}
