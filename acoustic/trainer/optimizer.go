package trainer

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/modelfile"
	"github.com/strode-asr/strode/acoustic/optim"
)

// optimizer is an update rule of package optim (Adam, or SGD with momentum;
// joint gradient clipping and sign projection after every step) whose state
// goes into checkpoints, so that a resumed run continues bitwise as an
// uninterrupted one.
type optimizer interface {
	setLR(lr float64)
	step(ps []*optim.Param)
	save(ps []*optim.Param) []modelfile.Tensor
	load(ps []*optim.Param, c *am.File) error
}

type adam struct{ opt *optim.Adam }

func newAdam(o optim.AdamOptions) *adam { return &adam{optim.NewAdam(o)} }

func (a *adam) setLR(lr float64)       { a.opt.Opts.LearningRate = lr }
func (a *adam) step(ps []*optim.Param) { a.opt.Step(ps) }

func (a *adam) save(ps []*optim.Param) []modelfile.Tensor {
	t, m, v := a.opt.State(ps)
	out := stateTensors("optim.adam.m.", ps, m)
	out = append(out, stateTensors("optim.adam.v.", ps, v)...)
	return append(out, modelfile.Tensor{Name: "optim.adam.t", DType: modelfile.F64, Shape: []int{1}, Data: []float64{float64(t)}})
}

func (a *adam) load(ps []*optim.Param, c *am.File) error {
	m, err := loadState("optim.adam.m.", ps, c)
	if err != nil {
		return err
	}
	v, err := loadState("optim.adam.v.", ps, c)
	if err != nil {
		return err
	}
	t := 0
	if tt, ok := c.Tensor("optim.adam.t"); ok && len(tt.Data) == 1 {
		t = int(tt.Data[0])
	}
	if err := a.opt.SetState(ps, t, m, v); err != nil {
		return fmt.Errorf("checkpoint: %w: %v", ErrCheckpoint, err)
	}
	return nil
}

type sgd struct{ opt *optim.SGD }

func newSGD(o optim.SGDOptions) *sgd { return &sgd{optim.NewSGD(o)} }

func (s *sgd) setLR(lr float64)       { s.opt.Opts.LearningRate = lr }
func (s *sgd) step(ps []*optim.Param) { s.opt.Step(ps) }

func (s *sgd) save(ps []*optim.Param) []modelfile.Tensor {
	return stateTensors("optim.sgd.u.", ps, s.opt.State(ps))
}

func (s *sgd) load(ps []*optim.Param, c *am.File) error {
	u, err := loadState("optim.sgd.u.", ps, c)
	if err != nil {
		return err
	}
	if err := s.opt.SetState(ps, u); err != nil {
		return fmt.Errorf("checkpoint: %w: %v", ErrCheckpoint, err)
	}
	return nil
}

// stateTensors names one optimizer buffer per parameter; parameters never
// stepped (nil buffers) are left out.
func stateTensors(prefix string, ps []*optim.Param, s [][]float64) []modelfile.Tensor {
	var out []modelfile.Tensor
	for i, p := range ps {
		if i < len(s) && s[i] != nil {
			out = append(out, modelfile.Tensor{Name: prefix + p.Name, DType: modelfile.F64, Shape: []int{p.Rows, p.Cols}, Data: s[i]})
		}
	}
	return out
}

// loadState reads the buffers stateTensors wrote; nil when no step was taken.
func loadState(prefix string, ps []*optim.Param, c *am.File) ([][]float64, error) {
	if _, ok := c.Tensor(prefix + ps[0].Name); !ok {
		return nil, nil
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
