package am

import (
	"math"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/acoustic/strode"
)

// Model is the parameters of an acoustic model.
type Model struct {
	Opts   Options
	Params strode.Params
	Enc    *sru.Encoder
	Out    *strode.Linear // e → logits (H×P, bias 1×P)

	// The STRODE head (nil for "sru").
	OutH     *optim.Param      // h̃ → logits, S×P
	Proj     *optim.Param      // h(0) = e·Proj, H×S
	ODE      [3]*strode.Linear // f_o = Linear→tanh→Linear→tanh→Linear
	Boundary *strode.Boundary
	Prior    *strode.Prior
	PriorIn  *strode.Linear // x_{i+1} → tanh hidden
	PriorMu  *strode.Linear // hidden → μ
	PriorVar *strode.Linear // hidden → s, σ² = softplus(s) + 1e-3
	kl       *strode.KL
}

// New builds a model with parameters initialised from seed.
func New(o Options, seed int64) (*Model, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	rng := rand.New(rand.NewSource(seed))
	m := &Model{Opts: o}
	var err error
	if m.Enc, err = sru.NewEncoder(&m.Params, "sru", o.InputDim, o.SRU, rng); err != nil {
		return nil, err
	}
	h, p := o.SRU.Hidden, o.NumPdfs
	m.Out = strode.NewLinear(&m.Params, "out", h, p, rng)
	if o.Kind == KindSTRODE {
		s := o.ODEState
		m.OutH = m.Params.New("out.ode.weight", s, p, optim.Free, rng)
		m.Proj = m.Params.New("ode.proj", h, s, optim.Free, rng)
		m.ODE[0] = strode.NewLinear(&m.Params, "ode.0", s, o.ODEHidden, rng)
		m.ODE[1] = strode.NewLinear(&m.Params, "ode.1", o.ODEHidden, o.ODEHidden, rng)
		m.ODE[2] = strode.NewLinear(&m.Params, "ode.2", o.ODEHidden, s, rng)
		m.Boundary = strode.NewBoundary(&m.Params, "phi", h, o.PhiHidden, rng)
		m.Prior = strode.NewPrior(&m.Params, "prior", o.PhiHidden, rng)
		m.PriorIn = strode.NewLinear(&m.Params, "gauss.0", o.InputDim, o.PriorHidden, rng)
		m.PriorMu = strode.NewLinear(&m.Params, "gauss.mu", o.PriorHidden, s, rng)
		m.PriorVar = strode.NewLinear(&m.Params, "gauss.var", o.PriorHidden, s, rng)
		m.kl, _ = strode.NewKL(o.KL)
	}
	return m, nil
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
