package am

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/modelfile"
	"github.com/strode-asr/strode/acoustic/optim"
)

// optimizer is an update rule whose state goes into checkpoints, so that a
// resumed run continues bitwise as an uninterrupted one. The update rules
// are those of package optim (PyTorch's Adam and SGD with momentum, joint
// gradient clipping by optim.ClipGradNorm, sign projection by
// optim.ProjectSigns after every step); they live here because optim keeps
// its moments unexported and a checkpoint needs them.
type optimizer interface {
	setLR(lr float64)
	step(ps []*optim.Param)
	save(ps []*optim.Param) []modelfile.Tensor
	load(ps []*optim.Param, c *File) error
}

type adam struct {
	o    optim.AdamOptions
	t    int
	m, v [][]float64
}

func newAdam(o optim.AdamOptions) *adam { return &adam{o: o} }

func (a *adam) setLR(lr float64) { a.o.LearningRate = lr }

func (a *adam) init(ps []*optim.Param) {
	if a.m == nil {
		for _, p := range ps {
			a.m = append(a.m, make([]float64, len(p.Data)))
			a.v = append(a.v, make([]float64, len(p.Data)))
		}
	}
}

// step: m ← β1·m + (1−β1)·g, v ← β2·v + (1−β2)·g², θ ← θ − α·m̂/(√v̂ + ε).
func (a *adam) step(ps []*optim.Param) {
	a.init(ps)
	optim.ClipGradNorm(ps, a.o.ClipNorm)
	a.t++
	b1, b2 := a.o.Beta1, a.o.Beta2
	c1 := 1 - math.Pow(b1, float64(a.t))
	c2 := 1 - math.Pow(b2, float64(a.t))
	for i, p := range ps {
		m, v := a.m[i], a.v[i]
		for j, g := range p.Grad {
			m[j] = b1*m[j] + (1-b1)*g
			v[j] = b2*v[j] + (1-b2)*g*g
			p.Data[j] -= a.o.LearningRate * (m[j] / c1) / (math.Sqrt(v[j]/c2) + a.o.Epsilon)
		}
	}
	optim.ProjectSigns(ps)
}

func stateTensors(prefix string, ps []*optim.Param, s [][]float64) []modelfile.Tensor {
	var out []modelfile.Tensor
	for i, p := range ps {
		if i < len(s) {
			out = append(out, modelfile.Tensor{Name: prefix + p.Name, DType: modelfile.F64, Shape: []int{p.Rows, p.Cols}, Data: s[i]})
		}
	}
	return out
}

func loadState(prefix string, ps []*optim.Param, c *File) ([][]float64, error) {
	if _, ok := c.Tensor(prefix + ps[0].Name); !ok {
		return nil, nil // no step taken yet
	}
	s := make([][]float64, len(ps))
	for i, p := range ps {
		t, ok := c.Tensor(prefix + p.Name)
		if !ok || len(t.Data) != len(p.Data) {
			return nil, fmt.Errorf("checkpoint: %w: optimizer state %s%s missing or misshapen", ErrCheckpoint, prefix, p.Name)
		}
		s[i] = append([]float64(nil), t.Data...)
	}
	return s, nil
}

func (a *adam) save(ps []*optim.Param) []modelfile.Tensor {
	out := stateTensors("optim.adam.m.", ps, a.m)
	out = append(out, stateTensors("optim.adam.v.", ps, a.v)...)
	out = append(out, modelfile.Tensor{Name: "optim.adam.t", DType: modelfile.F64, Shape: []int{1}, Data: []float64{float64(a.t)}})
	return out
}

func (a *adam) load(ps []*optim.Param, c *File) error {
	var err error
	if a.m, err = loadState("optim.adam.m.", ps, c); err != nil {
		return err
	}
	if a.v, err = loadState("optim.adam.v.", ps, c); err != nil {
		return err
	}
	if t, ok := c.Tensor("optim.adam.t"); ok && len(t.Data) == 1 {
		a.t = int(t.Data[0])
	}
	return nil
}

type sgd struct {
	o optim.SGDOptions
	u [][]float64
}

func newSGD(o optim.SGDOptions) *sgd { return &sgd{o: o} }

func (s *sgd) setLR(lr float64) { s.o.LearningRate = lr }

// step: u ← μ·u + g, θ ← θ − α·u.
func (s *sgd) step(ps []*optim.Param) {
	if s.u == nil {
		for _, p := range ps {
			s.u = append(s.u, make([]float64, len(p.Data)))
		}
	}
	optim.ClipGradNorm(ps, s.o.ClipNorm)
	for i, p := range ps {
		u := s.u[i]
		for j, g := range p.Grad {
			u[j] = s.o.Momentum*u[j] + g
			p.Data[j] -= s.o.LearningRate * u[j]
		}
	}
	optim.ProjectSigns(ps)
}

func (s *sgd) save(ps []*optim.Param) []modelfile.Tensor {
	return stateTensors("optim.sgd.u.", ps, s.u)
}

func (s *sgd) load(ps []*optim.Param, c *File) (err error) {
	s.u, err = loadState("optim.sgd.u.", ps, c)
	return err
}
