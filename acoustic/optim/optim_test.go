package optim

import (
	"math"
	"math/rand"
	"testing"
)

// quadratic: f(θ) = Σ (θ_i − c_i)², minimum at c; with a NonPos sign the
// constrained minimum clamps positive c_i to 0.
func minimise(t *testing.T, o Optimizer, sign Sign, steps int) *Param {
	t.Helper()
	c := []float64{1.5, -2, 0.5}
	p := NewParam("p", 1, 3, sign)
	for s := 0; s < steps; s++ {
		for i := range c {
			p.Grad[i] = 2 * (p.Data[i] - c[i])
		}
		o.Step([]*Param{p})
		if !p.InSignSet() {
			t.Fatalf("step %d: left the sign set: %v", s, p.Data)
		}
	}
	return p
}

func TestOptimizersConverge(t *testing.T) {
	tests := []struct {
		name string
		o    Optimizer
		sign Sign
		want []float64
	}{
		{"adam free", NewAdam(AdamOptions{LearningRate: 0.05, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8}), Free, []float64{1.5, -2, 0.5}},
		{"adam nonpos", NewAdam(AdamOptions{LearningRate: 0.05, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8}), NonPos, []float64{0, -2, 0}},
		{"sgd momentum", NewSGD(SGDOptions{LearningRate: 0.05, Momentum: 0.9}), Free, []float64{1.5, -2, 0.5}},
		{"sgd nonneg", NewSGD(SGDOptions{LearningRate: 0.05, Momentum: 0.5}), NonNeg, []float64{1.5, 0, 0.5}},
	}
	for _, tc := range tests {
		p := minimise(t, tc.o, tc.sign, 2000)
		for i, w := range tc.want {
			if math.Abs(p.Data[i]-w) > 1e-3 {
				t.Errorf("%s: θ[%d] = %v, want %v", tc.name, i, p.Data[i], w)
			}
		}
	}
}

func TestClipAndGlorot(t *testing.T) {
	p := NewParam("p", 2, 2, NonPos)
	copy(p.Grad, []float64{3, 4, 0, 0})
	if n := ClipGradNorm([]*Param{p}, 1); n != 5 {
		t.Errorf("norm %v, want 5", n)
	}
	if math.Abs(p.Grad[0]-0.6) > 1e-12 || math.Abs(p.Grad[1]-0.8) > 1e-12 {
		t.Errorf("clipped %v", p.Grad)
	}
	p.Glorot(rand.New(rand.NewSource(1)))
	if !p.InSignSet() {
		t.Errorf("Glorot init outside sign set: %v", p.Data)
	}
}
