package seqvideo

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// TestMSEKernel: the fused mean squared error equals the graph form
// mean(square(p − y)) to 1e-15 relative, and its gradients for both inputs
// match central differences (step 1e-6) to 1e-7 relative (the loss is a
// quadratic: the differences are exact up to roundoff).
func TestMSEKernel(t *testing.T) {
	rng := rand.New(rand.NewSource(1))
	p := optim.NewParam("p", 7, 5, optim.Free)
	y := optim.NewParam("y", 7, 5, optim.Free)
	for i := range p.Data {
		p.Data[i], y.Data[i] = rng.NormFloat64(), rng.NormFloat64()
	}
	n := nn.NewNet()
	fused := meanSquaredError(n, n.P(p), n.P(y))
	ref := n.Mean(n.Square(n.Sub(n.P(p), n.P(y))))
	ps, nodes := n.Bound()
	m, err := n.Compile(fused, nodes)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(); err != nil {
		t.Fatal(err)
	}
	a, b := autodiff.Value(fused)[0], autodiff.Value(ref)[0]
	if math.Abs(a-b) > 1e-15*b {
		t.Errorf("fused %.17g, graph %.17g", a, b)
	}
	grads := [][]float64{append([]float64(nil), m.Grad(0)...), append([]float64(nil), m.Grad(1)...)}
	const h = 1e-6
	for k, q := range ps {
		for j := range q.Data {
			old := q.Data[j]
			q.Data[j] = old + h
			m.Run()
			up := autodiff.Value(fused)[0]
			q.Data[j] = old - h
			m.Run()
			down := autodiff.Value(fused)[0]
			q.Data[j] = old
			fd := (up - down) / (2 * h)
			if g := grads[k][j]; math.Abs(g-fd) > 1e-7*math.Max(math.Abs(g), 1e-3) {
				t.Errorf("d/d%s[%d] = %.10g, finite difference %.10g", q.Name, j, g, fd)
			}
		}
	}
}

// TestPredictionsIntact: after a run the decoder's output read by
// Predicted gives back the MSE node's value and NextFrameMSE's, i.e. no
// operation after the decoder overwrote it.
func TestPredictionsIntact(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	m, _ := New(smallOptions(ODERNN), rng)
	const b, n = 2, 3
	bt, err := m.Build(b, n, true)
	if err != nil {
		t.Fatal(err)
	}
	videos := randomVideos(rng, b, n)
	if err := bt.Set(videos); err != nil {
		t.Fatal(err)
	}
	if err := bt.Run(); err != nil {
		t.Fatal(err)
	}
	var all, next float64
	for s := 0; s < b; s++ {
		for i, f := range bt.Predicted(s) {
			target := videos[s][min(i+1, n-1)*FramePixels:]
			for j, v := range f {
				d := v - float64(target[j])/255
				all += d * d
				if i < n-1 {
					next += d * d
				}
			}
		}
	}
	all /= float64(b * n * FramePixels)
	next /= float64(b * (n - 1) * FramePixels)
	if got := autodiff.Value(bt.MSE)[0]; math.Abs(got-all) > 1e-12*all {
		t.Errorf("MSE node %.15g, from Predicted %.15g", got, all)
	}
	if got := bt.NextFrameMSE(); math.Abs(got-next) > 1e-12*next {
		t.Errorf("NextFrameMSE %.15g, from Predicted %.15g", got, next)
	}
}

// TestTimesIntact: the times a training graph reports equal those of a
// graph that computes nothing but the boundaries from the same frames.
func TestTimesIntact(t *testing.T) {
	rng := rand.New(rand.NewSource(6))
	m, _ := New(smallOptions(STRODERNN), rng)
	const b, n = 2, 4
	videos := randomVideos(rng, b, n)
	bt, err := m.Build(b, n, true)
	if err != nil {
		t.Fatal(err)
	}
	if err := bt.Set(videos); err != nil {
		t.Fatal(err)
	}
	if err := bt.Run(); err != nil {
		t.Fatal(err)
	}
	got := bt.InferredTimes()
	net := nn.NewNet()
	x, data := net.Input("frames", n*b, FramePixels)
	copy(data, bt.x)
	gaps := m.Boundary.Gaps(net, m.Boundary.BFused(net, m.Enc.Apply(net, x)), b)
	mc, err := net.Compile(net.Sum(gaps), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := mc.Run(); err != nil {
		t.Fatal(err)
	}
	g := autodiff.Value(gaps)
	for s := 0; s < b; s++ {
		tt := 0.0
		for i := 0; i < n; i++ {
			tt += g[i*b+s]
			if math.Abs(got[s][i]-tt) > 1e-12*tt {
				t.Errorf("video %d time %d: training graph %.15g, boundaries alone %.15g", s, i, got[s][i], tt)
			}
		}
	}
}
