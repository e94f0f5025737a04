package sru

import (
	"flag"
	"fmt"
	"math"
	"math/rand"

	"gorgonia.org/gorgonia"

	"github.com/strode-asr/strode/acoustic/graph"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/strode"
)

// Options configures an SRU stack.
type Options struct {
	Hidden      int     // hidden units per layer
	Layers      int     // number of stacked layers
	Activation  string  // g: "identity" (the library's default) or "tanh"
	HighwayBias float64 // initial reset-gate bias b_r
	Dropout     float64 // dropout on the output of every layer but the last (training only)
}

// DefaultOptions are the paper's encoder: 9 layers × 900, identity, dropout 0.1.
func DefaultOptions() Options {
	return Options{Hidden: 900, Layers: 9, Activation: Identity, Dropout: 0.1}
}

// Register adds the options to fs.
func (o *Options) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.Hidden, "sru-hidden", o.Hidden, "hidden units per SRU layer")
	fs.IntVar(&o.Layers, "sru-layers", o.Layers, "number of SRU layers")
	fs.StringVar(&o.Activation, "sru-activation", o.Activation, "SRU cell activation: identity or tanh")
	fs.Float64Var(&o.HighwayBias, "highway-bias", o.HighwayBias, "initial bias of the SRU reset (highway) gate")
	fs.Float64Var(&o.Dropout, "dropout", o.Dropout, "dropout between SRU layers during training")
}

// Validate checks the options.
func (o Options) Validate() error {
	if o.Hidden < 1 || o.Layers < 1 {
		return fmt.Errorf("sru: --sru-hidden=%d --sru-layers=%d: must be ≥ 1", o.Hidden, o.Layers)
	}
	if o.Activation != Identity && o.Activation != Tanh {
		return fmt.Errorf("sru: unknown --sru-activation=%q (want identity or tanh)", o.Activation)
	}
	if o.Dropout < 0 || o.Dropout >= 1 {
		return fmt.Errorf("sru: --dropout=%g must be in [0, 1)", o.Dropout)
	}
	return nil
}

// Layer is one SRU layer's parameters.
type Layer struct {
	In, Hidden int
	W          *optim.Param // In × K·Hidden, blocks [W0 | W1 | W2 | (W3)]
	WeightC    *optim.Param // 1 × 2·Hidden: [v_f | v_r]
	Bias       *optim.Param // 1 × 2·Hidden: [b_f | b_r]
	Tanh       bool
}

// K is the number of input products per hidden unit: 3, or 4 with the
// highway projection when the input and hidden sizes differ.
func (l *Layer) K() int {
	if l.In == l.Hidden {
		return 3
	}
	return 4
}

// NewLayer adds a layer's parameters to ps, initialised as the library's
// reset_parameters.
func NewLayer(ps *strode.Params, name string, in int, o Options, rng *rand.Rand) *Layer {
	l := &Layer{In: in, Hidden: o.Hidden, Tanh: o.Activation == Tanh}
	h, k := o.Hidden, l.K()
	l.W = optim.NewParam(name+".weight", in, k*h, optim.Free)
	l.WeightC = optim.NewParam(name+".weight_c", 1, 2*h, optim.Free)
	l.Bias = optim.NewParam(name+".bias", 1, 2*h, optim.Free)
	ps.List = append(ps.List, l.W, l.WeightC, l.Bias)
	r := math.Sqrt(3 / float64(in))
	for i := 0; i < in; i++ {
		row := l.W.Data[i*k*h : (i+1)*k*h]
		for j := range row {
			v := (2*rng.Float64() - 1) * r
			if j >= h && j < 3*h { // forget and reset gates
				v *= math.Sqrt(0.5)
			}
			row[j] = v
		}
	}
	for j := range l.WeightC.Data {
		l.WeightC.Data[j] = (2*rng.Float64() - 1) * math.Sqrt(3) * math.Sqrt(0.5)
	}
	for j := h; j < 2*h; j++ {
		l.Bias.Data[j] = o.HighwayBias
	}
	return l
}

// Apply builds the layer on n for x (N×In, N = T·B rows, time-major) and the
// 0/1 mask column (N×1): U = x·W is one graph multiply, the recurrence one
// fused operation.
func (l *Layer) Apply(n *strode.Net, x, mask *graph.Node, t, b int) (*graph.Node, error) {
	u, err := MatMul(n, x, n.P(l.W))
	if err != nil {
		return nil, err
	}
	op := recurrenceOp{Shape{T: t, B: b, H: l.Hidden, K: l.K(), Tanh: l.Tanh}}
	args := []*graph.Node{u}
	if op.K == 3 {
		args = append(args, x)
	}
	args = append(args, n.P(l.WeightC), n.P(l.Bias), mask)
	h, err := gorgonia.ApplyOp(op, args...)
	if err != nil {
		return nil, fmt.Errorf("sru: layer %s: %w", l.W.Name, err)
	}
	return h, nil
}

// Encoder is a stack of SRU layers.
type Encoder struct {
	Opts   Options
	Layers []*Layer
}

// NewEncoder adds the parameters of a stack with input size in.
func NewEncoder(ps *strode.Params, name string, in int, o Options, rng *rand.Rand) (*Encoder, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	e := &Encoder{Opts: o}
	for i := 0; i < o.Layers; i++ {
		e.Layers = append(e.Layers, NewLayer(ps, fmt.Sprintf("%s.%d", name, i), in, o, rng))
		in = o.Hidden
	}
	return e, nil
}

// Apply builds the stack for x (N×in) with mask (N×1). With train and a
// dropout probability it also returns the dropout masks between the layers,
// to be drawn with Dropout.Fill before each run (else nil).
//
// With Float32Products (the default) the whole stack is one fused float32
// operation (stack); otherwise every layer is built from float64 graph
// nodes, the path the gradient checks compare with finite differences.
func (e *Encoder) Apply(n *strode.Net, x, mask *graph.Node, t, b int, train bool) (*graph.Node, *Dropout, error) {
	var drop *Dropout
	if train && e.Opts.Dropout > 0 && len(e.Layers) > 1 {
		drop = &Dropout{P: e.Opts.Dropout, keep: float32(1 / (1 - e.Opts.Dropout))}
	}
	if Float32Products {
		if drop != nil {
			for range e.Layers[1:] {
				drop.masks = append(drop.masks, make([]float32, t*b*e.Opts.Hidden))
			}
		}
		args := []*graph.Node{x, mask}
		for _, l := range e.Layers {
			args = append(args, n.P(l.W), n.P(l.WeightC), n.P(l.Bias))
		}
		h := n.Fused("sru", newStack(e, t, b, drop), args...)
		return h, drop, n.Err()
	}
	var err error
	for i, l := range e.Layers {
		if x, err = l.Apply(n, x, mask, t, b); err != nil {
			return nil, nil, err
		}
		if drop != nil && i < len(e.Layers)-1 {
			d, buf := n.Input("dropout", t*b, e.Opts.Hidden)
			drop.nodes = append(drop.nodes, buf)
			x = n.Mul(x, d)
		}
	}
	return x, drop, n.Err()
}
