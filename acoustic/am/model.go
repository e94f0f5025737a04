package am

import (
	"math"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/sru"
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

// linear is l applied to the rows x as one fused float32 node (sru.Affine):
// the STRODE head's layers, which run over every frame of the minibatch
// and, as gorgonia's MatMul and broadcast add, cost a float64 product, a
// repeated bias and two copies each. The gradient checks turn
// sru.Float32Products off and get the float64 graph.
func linear(net *nn.Net, l *nn.Linear, x *autodiff.Node) *autodiff.Node {
	y, err := sru.Affine(net, x, l.W, l.B)
	if err != nil {
		return net.Fail(l.W.Name, err)
	}
	return y
}

// linearAct is act(l(x)) as one fused float32 node (sru.AffineAct).
func linearAct(net *nn.Net, l *nn.Linear, x *autodiff.Node, act sru.AffineActivation) *autodiff.Node {
	y, err := sru.AffineAct(net, x, l.W, l.B, act)
	if err != nil {
		return net.Fail(l.W.Name, err)
	}
	return y
}

// product32 is x·w as one fused float32 node (sru.MatMul; float64 when the
// gradient checks turn sru.Float32Products off).
func product32(net *nn.Net, x, w *autodiff.Node) *autodiff.Node {
	y, err := sru.MatMul(net, x, w)
	if err != nil {
		return net.Fail("product", err)
	}
	return y
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

// halfLog2Pi is ½·log 2π, the constant of the Gaussian log-density.
var halfLog2Pi = 0.5 * math.Log(2*math.Pi)
