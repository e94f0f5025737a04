package conv

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

func randSlice(rng *rand.Rand, n int, scale float64) []float64 {
	s := make([]float64, n)
	for i := range s {
		s[i] = scale * (2*rng.Float64() - 1)
	}
	return s
}

// naiveConv2D is the convolution as its definition, a direct sum per output.
func naiveConv2D(x, w, b []float64, n int, o Options) []float64 {
	oh, ow := o.OutSize()
	s, k := o.stride(), o.KernelSize
	out := make([]float64, n*o.OutChannels*oh*ow)
	for i := 0; i < n; i++ {
		for oc := 0; oc < o.OutChannels; oc++ {
			for oy := 0; oy < oh; oy++ {
				for ox := 0; ox < ow; ox++ {
					sum := 0.0
					if b != nil {
						sum = b[oc]
					}
					for ic := 0; ic < o.InChannels; ic++ {
						for kh := 0; kh < k; kh++ {
							for kw := 0; kw < k; kw++ {
								iy, ix := oy*s-o.Padding+kh, ox*s-o.Padding+kw
								if iy < 0 || iy >= o.Height || ix < 0 || ix >= o.Width {
									continue
								}
								sum += w[((oc*o.InChannels+ic)*k+kh)*k+kw] * x[((i*o.InChannels+ic)*o.Height+iy)*o.Width+ix]
							}
						}
					}
					out[((i*o.OutChannels+oc)*oh+oy)*ow+ox] = sum
				}
			}
		}
	}
	return out
}

// naiveConvTranspose2D scatters every input pixel times the kernel into the
// output, as PyTorch's ConvTranspose2d documentation describes it.
func naiveConvTranspose2D(x, w, b []float64, n int, o Options) []float64 {
	oh, ow := o.TransposedOutSize()
	s, k := o.stride(), o.KernelSize
	out := make([]float64, n*o.OutChannels*oh*ow)
	for i := 0; i < n; i++ {
		for ic := 0; ic < o.InChannels; ic++ {
			for iy := 0; iy < o.Height; iy++ {
				for ix := 0; ix < o.Width; ix++ {
					v := x[((i*o.InChannels+ic)*o.Height+iy)*o.Width+ix]
					for oc := 0; oc < o.OutChannels; oc++ {
						for kh := 0; kh < k; kh++ {
							for kw := 0; kw < k; kw++ {
								oy, ox := iy*s-o.Padding+kh, ix*s-o.Padding+kw
								if oy < 0 || oy >= oh || ox < 0 || ox >= ow {
									continue
								}
								out[((i*o.OutChannels+oc)*oh+oy)*ow+ox] += v * w[((ic*o.OutChannels+oc)*k+kh)*k+kw]
							}
						}
					}
				}
			}
		}
	}
	if b != nil {
		addChannels(out, b, n, o.OutChannels, oh*ow)
	}
	return out
}

// maxRelDiff is max |a − b| / max(1, max |b|), +Inf for unequal lengths.
func maxRelDiff(a, b []float64) float64 {
	if len(a) != len(b) {
		return math.Inf(1)
	}
	d, scale := 0.0, 1.0
	for i := range b {
		d = math.Max(d, math.Abs(a[i]-b[i]))
		scale = math.Max(scale, math.Abs(b[i]))
	}
	return d / scale
}

// gradCheck compares the gradients of cost = Σ out ⊙ R (R random, fixed)
// with respect to every input (each a parameter node) with central
// differences, step h: every entry must satisfy
// |numeric − analytic| ≤ tol·max(1, |analytic|).
func gradCheck(t *testing.T, name string, vals [][]float64, shapes [][2]int, h, tol float64, build func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node) {
	t.Helper()
	g := autodiff.New()
	in := make([]*autodiff.Node, len(vals))
	for i, v := range vals {
		in[i] = g.Param("in", v, shapes[i][0], shapes[i][1])
	}
	out := build(g, in)
	if g.Err() != nil {
		t.Fatalf("%s: %v", name, g.Err())
	}
	s := out.Shape()
	r := randSlice(rand.New(rand.NewSource(7)), s[0]*s[1], 1)
	cost := g.Sum(g.Mul(out, g.Const("r", r, s[0], s[1])))
	m, err := g.Compile(cost, in)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	defer m.Close()
	run := func() float64 {
		if err := m.Run(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return autodiff.Value(cost)[0]
	}
	run()
	grads := make([][]float64, len(vals))
	for i := range vals {
		grads[i] = append([]float64(nil), m.Grad(i)...)
	}
	for i, v := range vals {
		worst := 0.0
		for j := range v {
			keep := v[j]
			v[j] = keep + h
			up := run()
			v[j] = keep - h
			down := run()
			v[j] = keep
			num, ana := (up-down)/(2*h), grads[i][j]
			e := math.Abs(num-ana) / math.Max(1, math.Abs(ana))
			worst = math.Max(worst, e)
			if e > tol {
				t.Errorf("%s: input %d entry %d: numeric %.9g, analytic %.9g", name, i, j, num, ana)
				return
			}
		}
		t.Logf("%s: input %d (%d entries): worst relative error %.2g", name, i, len(v), worst)
	}
}
