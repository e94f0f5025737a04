package am

import (
	"math/rand"

	"github.com/strode-asr/strode/acoustic/nn"
)

// Model is the parameters of an acoustic model: those of its kind's layers
// (arch.go) and the affine output layer every kind ends in.
type Model struct {
	Opts   Options
	Params nn.Params
	Out    *nn.Linear // the output layer: what the kind's layers give → logits (the affine under the log-softmax)

	arch arch
}

// New builds a model with parameters initialised from seed.
func New(o Options, seed int64) (*Model, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	a, err := archOf(o)
	if err != nil {
		return nil, err
	}
	m := &Model{Opts: o, arch: a}
	if err := a.init(m, rand.New(rand.NewSource(seed))); err != nil {
		return nil, err
	}
	return m, nil
}

// HasTTilde tells whether the model's graph has a boundary t̃ per frame
// (Batch.TTilde, Stats' t̃ fields): the STRODE head, learned or fixed.
func (m *Model) HasTTilde() bool {
	_, ok := m.arch.(*strodeArch)
	return ok
}

// NumParams is the number of trainable values.
func (m *Model) NumParams() int {
	n := 0
	for _, p := range m.Params.List {
		n += len(p.Data)
	}
	return n
}
