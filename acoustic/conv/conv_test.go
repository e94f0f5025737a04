package conv

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/internal/gemm"
)

// Tolerances (relative to max(1, |value|)):
const (
	// float64 products against the naive sums: rounding only.
	tolFloat64 = 1e-12
	// float32 products (inputs of magnitude ≤ 1, at most 75 terms per
	// sum) against the naive float64 sums: a few float32 ulps per term.
	tolFloat32 = 2e-5
	// central differences with step gradStep on the float64 path.
	gradStep = 1e-5
	tolGrad  = 1e-8
)

type convCase struct {
	n    int
	o    Options
	bias bool
}

func (c convCase) String() string {
	o := c.o
	return fmt.Sprintf("n%d_%dx%dx%d_to_%d_k%d_s%d_p%d_bias%v", c.n, o.InChannels, o.Height, o.Width, o.OutChannels, o.KernelSize, o.stride(), o.Padding, c.bias)
}

var conv2dCases = []convCase{
	{2, Options{InChannels: 3, OutChannels: 4, KernelSize: 3, Stride: 1, Padding: 0, Height: 7, Width: 5}, true},
	{3, Options{InChannels: 2, OutChannels: 3, KernelSize: 3, Stride: 1, Padding: 1, Height: 5, Width: 6}, false},
	{2, Options{InChannels: 3, OutChannels: 2, KernelSize: 4, Stride: 2, Padding: 1, Height: 9, Width: 7}, true},
	{2, Options{InChannels: 2, OutChannels: 3, KernelSize: 5, Stride: 2, Padding: 2, Height: 7, Width: 9}, true},
	{2, Options{InChannels: 1, OutChannels: 3, KernelSize: 5, Stride: 4, Padding: 2, Height: 13, Width: 11}, false},
	{3, Options{InChannels: 3, OutChannels: 2, KernelSize: 4, Stride: 1, Padding: 0, Height: 4, Width: 4}, false},
	{2, Options{InChannels: 2, OutChannels: 2, KernelSize: 3, Stride: 2, Padding: 2, Height: 5, Width: 5}, true},
	{2, Options{InChannels: 2, OutChannels: 3, KernelSize: 5, Stride: 1, Padding: 2, Height: 3, Width: 4}, true},
}

var convTCases = []convCase{
	{2, Options{InChannels: 3, OutChannels: 2, KernelSize: 4, Stride: 4, Padding: 0, Height: 1, Width: 1}, true},
	{2, Options{InChannels: 3, OutChannels: 2, KernelSize: 4, Stride: 2, Padding: 1, Height: 3, Width: 5}, true},
	{3, Options{InChannels: 2, OutChannels: 3, KernelSize: 3, Stride: 1, Padding: 1, Height: 4, Width: 3}, false},
	{2, Options{InChannels: 2, OutChannels: 2, KernelSize: 5, Stride: 2, Padding: 2, Height: 3, Width: 4}, true},
	{2, Options{InChannels: 2, OutChannels: 3, KernelSize: 3, Stride: 2, Padding: 0, Height: 3, Width: 3}, false},
	{2, Options{InChannels: 2, OutChannels: 1, KernelSize: 4, Stride: 4, Padding: 0, Height: 3, Width: 3}, false},
	{2, Options{InChannels: 3, OutChannels: 2, KernelSize: 5, Stride: 1, Padding: 2, Height: 3, Width: 5}, true},
}

// inputs are a case's random x, w and (with bias) b.
func (c convCase) inputs(seed int64, transposed bool) (vals [][]float64, shapes [][2]int) {
	rng := rand.New(rand.NewSource(seed))
	o := c.o
	wr, wc := o.WeightShape()
	if transposed {
		wr, wc = o.TransposedWeightShape()
	}
	xc := o.InChannels * o.Height * o.Width
	vals = [][]float64{randSlice(rng, c.n*xc, 1), randSlice(rng, wr*wc, 1)}
	shapes = [][2]int{{c.n, xc}, {wr, wc}}
	if c.bias {
		vals = append(vals, randSlice(rng, o.OutChannels, 1))
		shapes = append(shapes, [2]int{1, o.OutChannels})
	}
	return vals, shapes
}

func (c convCase) build(transposed bool) func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node {
	return func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node {
		var b *autodiff.Node
		if len(in) > 2 {
			b = in[2]
		}
		if transposed {
			return ConvTranspose2D(g, in[0], in[1], b, c.o)
		}
		return Conv2D(g, in[0], in[1], b, c.o)
	}
}

// forward runs the op once through a graph and returns its output.
func forward(t *testing.T, vals [][]float64, shapes [][2]int, build func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node) []float64 {
	t.Helper()
	g := autodiff.New()
	in := make([]*autodiff.Node, len(vals))
	for i, v := range vals {
		in[i] = g.Param("in", v, shapes[i][0], shapes[i][1])
	}
	out := build(g, in)
	m, err := g.Compile(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Run(); err != nil {
		t.Fatal(err)
	}
	return append([]float64(nil), autodiff.Value(out)...)
}

func TestForwardAgainstNaive(t *testing.T) {
	for _, transposed := range []bool{false, true} {
		cases, naive := conv2dCases, naiveConv2D
		if transposed {
			cases, naive = convTCases, naiveConvTranspose2D
		}
		for _, c := range cases {
			vals, shapes := c.inputs(1, transposed)
			var b []float64
			if c.bias {
				b = vals[2]
			}
			want := naive(vals[0], vals[1], b, c.n, c.o)
			for _, f64 := range []bool{true, false} {
				cc := c
				cc.o.Float64 = f64
				got := forward(t, vals, shapes, cc.build(transposed))
				tol := tolFloat32
				if f64 {
					tol = tolFloat64
				}
				if len(got) != len(want) {
					t.Fatalf("transposed=%v %v: %d outputs, want %d", transposed, c, len(got), len(want))
				}
				if d := maxRelDiff(got, want); d > tol {
					t.Errorf("transposed=%v %v float64=%v: differs from the naive sums by %.3g (tolerance %.0g)", transposed, c, f64, d, tol)
				}
			}
		}
	}
}

func TestConv2DGradients(t *testing.T) {
	for _, c := range conv2dCases {
		c.o.Float64 = true
		vals, shapes := c.inputs(2, false)
		gradCheck(t, "conv2d "+c.String(), vals, shapes, gradStep, tolGrad, c.build(false))
	}
}

func TestConvTranspose2DGradients(t *testing.T) {
	for _, c := range convTCases {
		c.o.Float64 = true
		vals, shapes := c.inputs(3, true)
		gradCheck(t, "conv-transpose2d "+c.String(), vals, shapes, gradStep, tolGrad, c.build(true))
	}
}

// TestFloat32Gradients: the float32 path's gradients match the float64
// path's (checked against finite differences above) within tolFloat32.
func TestFloat32Gradients(t *testing.T) {
	for _, transposed := range []bool{false, true} {
		cases := conv2dCases
		if transposed {
			cases = convTCases
		}
		for _, c := range cases {
			vals, shapes := c.inputs(4, transposed)
			var ref [][]float64
			for _, f64 := range []bool{true, false} {
				c.o.Float64 = f64
				grads := gradients(t, vals, shapes, c.build(transposed))
				if ref == nil {
					ref = grads
					continue
				}
				for i := range grads {
					if d := maxRelDiff(grads[i], ref[i]); d > tolFloat32 {
						t.Errorf("transposed=%v %v: input %d: float32 gradient differs from float64 by %.3g", transposed, c, i, d)
					}
				}
			}
		}
	}
}

// gradients are d(Σ out ⊙ R)/d input for every input after one run.
func gradients(t *testing.T, vals [][]float64, shapes [][2]int, build func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node) [][]float64 {
	t.Helper()
	g := autodiff.New()
	in := make([]*autodiff.Node, len(vals))
	for i, v := range vals {
		in[i] = g.Param("in", v, shapes[i][0], shapes[i][1])
	}
	out := build(g, in)
	s := out.Shape()
	r := randSlice(rand.New(rand.NewSource(7)), s[0]*s[1], 1)
	cost := g.Sum(g.Mul(out, g.Const("r", r, s[0], s[1])))
	m, err := g.Compile(cost, in)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Run(); err != nil {
		t.Fatal(err)
	}
	grads := make([][]float64, len(vals))
	for i := range vals {
		grads[i] = append([]float64(nil), m.Grad(i)...)
	}
	return grads
}

func TestShapeErrors(t *testing.T) {
	o := Options{InChannels: 2, OutChannels: 3, KernelSize: 3, Stride: 1, Padding: 1, Height: 4, Width: 4}
	for _, tc := range []struct {
		name       string
		o          Options
		xc, wr, wc int
		bias       int
		transposed bool
		want       string
	}{
		{"input columns", o, 31, 3, 18, 0, false, "input has 31 columns, want 2×4×4 = 32"},
		{"weight", o, 32, 3, 17, 0, false, "weight is 3×17, want 3×18"},
		{"bias", o, 32, 3, 18, 2, false, "bias is 1×2, want 1×3"},
		{"transposed weight", o, 32, 3, 18, 0, true, "weight is 3×18, want 2×27"},
		{"no output", Options{InChannels: 1, OutChannels: 1, KernelSize: 5, Height: 3, Width: 3}, 9, 1, 25, 0, false, "no output"},
		{"no channels", Options{OutChannels: 1, KernelSize: 3, Height: 3, Width: 3}, 9, 1, 9, 0, false, "want positive"},
	} {
		g := autodiff.New()
		x, _ := g.Input("x", 2, tc.xc)
		w := g.Param("w", make([]float64, tc.wr*tc.wc), tc.wr, tc.wc)
		var b *autodiff.Node
		if tc.bias > 0 {
			b = g.Param("b", make([]float64, tc.bias), 1, tc.bias)
		}
		if tc.transposed {
			ConvTranspose2D(g, x, w, b, tc.o)
		} else {
			Conv2D(g, x, w, b, tc.o)
		}
		if err := g.Err(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want one containing %q", tc.name, err, tc.want)
		}
	}
}

func TestOutSizes(t *testing.T) {
	// The reference encoder and decoder (DESIGN: Rotating MNIST).
	for _, tc := range []struct {
		o          Options
		transposed bool
		h          int
	}{
		{Options{KernelSize: 5, Stride: 4, Padding: 2, Height: 64, Width: 64}, false, 16},
		{Options{KernelSize: 5, Stride: 2, Padding: 2, Height: 16, Width: 16}, false, 8},
		{Options{KernelSize: 5, Stride: 2, Padding: 2, Height: 8, Width: 8}, false, 4},
		{Options{KernelSize: 4, Stride: 1, Padding: 0, Height: 4, Width: 4}, false, 1},
		{Options{KernelSize: 4, Stride: 4, Padding: 0, Height: 1, Width: 1}, true, 4},
		{Options{KernelSize: 4, Stride: 2, Padding: 1, Height: 4, Width: 4}, true, 8},
		{Options{KernelSize: 4, Stride: 2, Padding: 1, Height: 8, Width: 8}, true, 16},
		{Options{KernelSize: 4, Stride: 4, Padding: 0, Height: 16, Width: 16}, true, 64},
	} {
		h, w := tc.o.OutSize()
		if tc.transposed {
			h, w = tc.o.TransposedOutSize()
		}
		if h != tc.h || w != tc.h {
			t.Errorf("%+v transposed=%v: %d×%d, want %d×%d", tc.o, tc.transposed, h, w, tc.h, tc.h)
		}
	}
}

// TestNoInputGradient: the weight and bias gradients stay, the input's is 0.
func TestNoInputGradient(t *testing.T) {
	for _, transposed := range []bool{false, true} {
		c := conv2dCases[0]
		if transposed {
			c = convTCases[1]
		}
		vals, shapes := c.inputs(9, transposed)
		want := gradients(t, vals, shapes, c.build(transposed))
		c.o.NoInputGradient = true
		got := gradients(t, vals, shapes, c.build(transposed))
		for i := range got {
			ref := want[i]
			if i == 0 {
				ref = make([]float64, len(got[0]))
			}
			if d := maxRelDiff(got[i], ref); d != 0 {
				t.Errorf("transposed=%v: input %d: gradient differs by %g", transposed, i, d)
			}
		}
	}
}

// TestParallelMatchesNaive: layers large enough for parallel's split (two
// threads) give the naive sums, and their gradients do not depend on the
// thread count (run under -race to check the split).
func TestParallelMatchesNaive(t *testing.T) {
	prev := gemm.SetThreads(2)
	defer gemm.SetThreads(prev)
	for _, transposed := range []bool{false, true} {
		c := convCase{8, Options{InChannels: 4, OutChannels: 5, KernelSize: 3, Stride: 1, Padding: 1, Height: 16, Width: 16, Float64: true}, true}
		naive := naiveConv2D
		if transposed {
			c.o.Stride, c.o.KernelSize, c.o.Height, c.o.Width = 2, 4, 12, 12
			naive = naiveConvTranspose2D
		}
		if g := c.o.geom(transposed); c.n*g.rows()*g.positions() < 2*parallelMin {
			t.Fatalf("transposed=%v: too small to be split", transposed)
		}
		vals, shapes := c.inputs(11, transposed)
		got := forward(t, vals, shapes, c.build(transposed))
		if d := maxRelDiff(got, naive(vals[0], vals[1], vals[2], c.n, c.o)); d > tolFloat64 {
			t.Errorf("transposed=%v: differs from the naive sums by %.3g", transposed, d)
		}
		two := gradients(t, vals, shapes, c.build(transposed))
		gemm.SetThreads(1)
		one := gradients(t, vals, shapes, c.build(transposed))
		gemm.SetThreads(2)
		for i := range one {
			if d := maxRelDiff(two[i], one[i]); d != 0 {
				t.Errorf("transposed=%v: input %d: gradient with 2 threads differs from 1 by %g", transposed, i, d)
			}
		}
	}
}

func TestWidenTransposed(t *testing.T) {
	for _, mn := range [][2]int{{1, 1}, {3, 70}, {65, 33}, {40, 1}} {
		m, n := mn[0], mn[1]
		src := make([]float32, m*n)
		for i := range src {
			src[i] = float32(i)
		}
		dst := make([]float64, m*n)
		widenTransposed(dst, src, m, n)
		for i := 0; i < m; i++ {
			for j := 0; j < n; j++ {
				if dst[j*m+i] != float64(src[i*n+j]) {
					t.Fatalf("%d×%d: (%d, %d) = %g, want %g", m, n, j, i, dst[j*m+i], src[i*n+j])
				}
			}
		}
	}
}
