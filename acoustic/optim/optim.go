package optim

import (
	"flag"
	"fmt"
	"math"
)

// Optimizer updates parameters from their gradients.
type Optimizer interface {
	Step(ps []*Param)
}

// AdamOptions configures Adam (Kingma & Ba 2015), PyTorch's defaults.
type AdamOptions struct {
	LearningRate float64 // step size α
	Beta1, Beta2 float64 // decay rates of the moment estimates
	Epsilon      float64 // added to √v̂
	ClipNorm     float64 // joint gradient L2 norm limit; ≤ 0: none
}

// DefaultAdamOptions are PyTorch's Adam defaults with the learning rate of
// the STRODE sine recipe.
func DefaultAdamOptions() AdamOptions {
	return AdamOptions{LearningRate: 3e-4, Beta1: 0.9, Beta2: 0.999, Epsilon: 1e-8}
}

// Register adds the options to fs.
func (o *AdamOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.LearningRate, "learning-rate", o.LearningRate, "Adam learning rate")
	fs.Float64Var(&o.Beta1, "adam-beta1", o.Beta1, "Adam first-moment decay")
	fs.Float64Var(&o.Beta2, "adam-beta2", o.Beta2, "Adam second-moment decay")
	fs.Float64Var(&o.Epsilon, "adam-epsilon", o.Epsilon, "Adam denominator epsilon")
	fs.Float64Var(&o.ClipNorm, "clip-norm", o.ClipNorm, "clip the joint gradient L2 norm to this (0: no clipping)")
}

// Adam is the Adam optimizer with bias-corrected moments.
type Adam struct {
	Opts AdamOptions
	// AfterStep runs after every update; NewAdam sets it to ProjectSigns.
	AfterStep func([]*Param)
	m, v      map[*Param][]float64
	t         int
}

// NewAdam returns an Adam optimizer that projects onto sign sets after
// every step.
func NewAdam(o AdamOptions) *Adam {
	return &Adam{Opts: o, AfterStep: ProjectSigns, m: map[*Param][]float64{}, v: map[*Param][]float64{}}
}

// Step applies one update: clip, m ← β1·m + (1−β1)·g, v ← β2·v + (1−β2)·g²,
// θ ← θ − α·m̂/(√v̂ + ε), then AfterStep.
func (a *Adam) Step(ps []*Param) {
	ClipGradNorm(ps, a.Opts.ClipNorm)
	a.t++
	b1, b2 := a.Opts.Beta1, a.Opts.Beta2
	c1 := 1 - math.Pow(b1, float64(a.t))
	c2 := 1 - math.Pow(b2, float64(a.t))
	// θ −= α·(m/c1)/(√(v/c2) + ε) with the bias corrections folded into
	// two constants: one division and one square root per value, which
	// matters when small minibatches make the update a large part of a
	// step (a feed-forward net on two utterances).
	step, ic2 := a.Opts.LearningRate/c1, 1/c2
	for _, p := range ps {
		m, ok := a.m[p]
		if !ok {
			m = make([]float64, len(p.Data))
			a.m[p] = m
			a.v[p] = make([]float64, len(p.Data))
		}
		v := a.v[p]
		for i, g := range p.Grad {
			m[i] = b1*m[i] + (1-b1)*g
			v[i] = b2*v[i] + (1-b2)*g*g
			p.Data[i] -= step * m[i] / (math.Sqrt(v[i]*ic2) + a.Opts.Epsilon)
		}
	}
	if a.AfterStep != nil {
		a.AfterStep(ps)
	}
}

// SGDOptions configures SGD with momentum.
type SGDOptions struct {
	LearningRate float64
	Momentum     float64 // 0: plain SGD
	ClipNorm     float64 // joint gradient L2 norm limit; ≤ 0: none
}

// Register adds the options to fs.
func (o *SGDOptions) Register(fs *flag.FlagSet) {
	fs.Float64Var(&o.LearningRate, "learning-rate", o.LearningRate, "SGD learning rate")
	fs.Float64Var(&o.Momentum, "momentum", o.Momentum, "SGD momentum")
	fs.Float64Var(&o.ClipNorm, "clip-norm", o.ClipNorm, "clip the joint gradient L2 norm to this (0: no clipping)")
}

// SGD is stochastic gradient descent with (PyTorch-style) momentum:
// u ← μ·u + g, θ ← θ − α·u.
type SGD struct {
	Opts SGDOptions
	// AfterStep runs after every update; NewSGD sets it to ProjectSigns.
	AfterStep func([]*Param)
	u         map[*Param][]float64
}

// NewSGD returns an SGD optimizer that projects onto sign sets after every
// step.
func NewSGD(o SGDOptions) *SGD {
	return &SGD{Opts: o, AfterStep: ProjectSigns, u: map[*Param][]float64{}}
}

// Step applies one update.
func (s *SGD) Step(ps []*Param) {
	ClipGradNorm(ps, s.Opts.ClipNorm)
	for _, p := range ps {
		u, ok := s.u[p]
		if !ok {
			u = make([]float64, len(p.Data))
			s.u[p] = u
		}
		for i, g := range p.Grad {
			u[i] = s.Opts.Momentum*u[i] + g
			p.Data[i] -= s.Opts.LearningRate * u[i]
		}
	}
	if s.AfterStep != nil {
		s.AfterStep(ps)
	}
}

// State returns Adam's step count and moments in ps order, for checkpoints;
// a parameter never stepped has nil moments.
func (a *Adam) State(ps []*Param) (t int, m, v [][]float64) {
	m = make([][]float64, len(ps))
	v = make([][]float64, len(ps))
	for i, p := range ps {
		m[i], v[i] = a.m[p], a.v[p]
	}
	return a.t, m, v
}

// SetState restores what State returned (m and v in ps order; nil m means
// no step was taken), so a resumed run continues bitwise.
func (a *Adam) SetState(ps []*Param, t int, m, v [][]float64) error {
	a.t = t
	a.m, a.v = map[*Param][]float64{}, map[*Param][]float64{}
	if m == nil {
		return nil
	}
	if len(m) != len(ps) || len(v) != len(ps) {
		return fmt.Errorf("optim: Adam state has %d/%d tensors for %d parameters", len(m), len(v), len(ps))
	}
	for i, p := range ps {
		if len(m[i]) != len(p.Data) || len(v[i]) != len(p.Data) {
			return fmt.Errorf("optim: Adam state for %s has %d/%d values, want %d", p.Name, len(m[i]), len(v[i]), len(p.Data))
		}
		a.m[p], a.v[p] = m[i], v[i]
	}
	return nil
}

// State returns the momentum buffers in ps order, for checkpoints.
func (s *SGD) State(ps []*Param) [][]float64 {
	u := make([][]float64, len(ps))
	for i, p := range ps {
		u[i] = s.u[p]
	}
	return u
}

// SetState restores what State returned (nil: no step taken).
func (s *SGD) SetState(ps []*Param, u [][]float64) error {
	s.u = map[*Param][]float64{}
	if u == nil {
		return nil
	}
	if len(u) != len(ps) {
		return fmt.Errorf("optim: SGD state has %d tensors for %d parameters", len(u), len(ps))
	}
	for i, p := range ps {
		if len(u[i]) != len(p.Data) {
			return fmt.Errorf("optim: SGD state for %s has %d values, want %d", p.Name, len(u[i]), len(p.Data))
		}
		s.u[p] = u[i]
	}
	return nil
}
