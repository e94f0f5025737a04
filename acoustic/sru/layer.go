package sru

import (
	"flag"
	"fmt"
	"math"
	"math/rand"

	"gorgonia.org/gorgonia"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
)

// Options configures an SRU stack.
type Options struct {
	Hidden      int     // hidden units per layer
	Layers      int     // number of stacked layers
	Activation  string  // g: "identity" (the library's default) or "tanh"
	HighwayBias float64 // initial reset-gate bias b_r
	Dropout     float64 // dropout on the output of every layer but the last (training only)

	// Bidirectional adds a second recurrence per layer that runs backwards
	// over each utterance's real frames, as asappresearch/sru's
	// bidirectional=True: each direction has Hidden units, the layer's
	// output is [forward | reverse] (2·Hidden), which is the next layer's
	// input. Off in old model files.
	Bidirectional bool `json:",omitempty"`
}

// Dirs is the number of directions per layer: 1, or 2 when bidirectional.
func (o Options) Dirs() int {
	if o.Bidirectional {
		return 2
	}
	return 1
}

// OutDim is the size of every layer's output: Hidden × Dirs.
func (o Options) OutDim() int { return o.Hidden * o.Dirs() }

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
	fs.BoolVar(&o.Bidirectional, "bidirectional", o.Bidirectional, "bidirectional SRU: a second recurrence per layer runs backwards over each utterance, outputs concatenated (2 x --sru-hidden)")
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

// Layer is one SRU layer's parameters. A bidirectional layer has a second
// set for the reverse direction (nil otherwise), initialised the same way.
type Layer struct {
	In, Hidden int
	W          *optim.Param // In × K·Hidden, blocks [W0 | W1 | W2 | (W3)]
	WeightC    *optim.Param // 1 × 2·Hidden: [v_f | v_r]
	Bias       *optim.Param // 1 × 2·Hidden: [b_f | b_r]
	Tanh       bool

	WR, WeightCR, BiasR *optim.Param // reverse direction (bidirectional)
}

// Dirs is 1, or 2 for a bidirectional layer.
func (l *Layer) Dirs() int {
	if l.WR != nil {
		return 2
	}
	return 1
}

// K is the number of input products per hidden unit: 3, or 4 with the
// highway projection when the input size differs from the layer's output
// size (Hidden × Dirs). For a bidirectional layer with K = 3 the highway
// x′ of each direction is its half of x, as in asappresearch/sru.
func (l *Layer) K() int {
	if l.In == l.Hidden*l.Dirs() {
		return 3
	}
	return 4
}

// direction returns the parameters of direction d (0 forward, 1 reverse).
func (l *Layer) direction(d int) (w, wc, bias *optim.Param) {
	if d == 0 {
		return l.W, l.WeightC, l.Bias
	}
	return l.WR, l.WeightCR, l.BiasR
}

// NewLayer adds a layer's parameters to ps, initialised as the library's
// reset_parameters.
// The reverse direction's parameters are named NAME.reverse.weight etc. and
// drawn after the forward direction's, so a unidirectional layer draws
// what it always did.
func NewLayer(ps *nn.Params, name string, in int, o Options, rng *rand.Rand) *Layer {
	l := &Layer{In: in, Hidden: o.Hidden, Tanh: o.Activation == Tanh}
	h, k := o.Hidden, 3
	if in != o.OutDim() {
		k = 4 // as Layer.K
	}
	newDirection := func(prefix string) (w, wc, bias *optim.Param) {
		w = optim.NewParam(prefix+".weight", in, k*h, optim.Free)
		wc = optim.NewParam(prefix+".weight_c", 1, 2*h, optim.Free)
		bias = optim.NewParam(prefix+".bias", 1, 2*h, optim.Free)
		ps.List = append(ps.List, w, wc, bias)
		r := math.Sqrt(3 / float64(in))
		for i := 0; i < in; i++ {
			row := w.Data[i*k*h : (i+1)*k*h]
			for j := range row {
				v := (2*rng.Float64() - 1) * r
				if j >= h && j < 3*h { // forget and reset gates
					v *= math.Sqrt(0.5)
				}
				row[j] = v
			}
		}
		for j := range wc.Data {
			wc.Data[j] = (2*rng.Float64() - 1) * math.Sqrt(3) * math.Sqrt(0.5)
		}
		for j := h; j < 2*h; j++ {
			bias.Data[j] = o.HighwayBias
		}
		return
	}
	l.W, l.WeightC, l.Bias = newDirection(name)
	if o.Bidirectional {
		l.WR, l.WeightCR, l.BiasR = newDirection(name + ".reverse")
	}
	return l
}

// Apply builds the layer on n for x (N×In, N = T·B rows, time-major) and the
// 0/1 mask column (N×1): U = x·W is one graph multiply, the recurrence one
// fused operation.
//
// A bidirectional layer runs the reverse direction on x with every
// utterance's real frames in reverse order (reverseRows), so its
// recurrence starts at the utterance's own last real frame, and puts the
// result back in time order beside the forward direction's.
func (l *Layer) Apply(n *nn.Net, x, mask *autodiff.Node, t, b int) (*autodiff.Node, error) {
	if l.Dirs() == 1 {
		return l.applyDirection(n, 0, x, x, mask, t, b)
	}
	// The highway input of each direction: its half of x when K = 3.
	half := func(x *autodiff.Node, d int) *autodiff.Node {
		if l.K() == 4 {
			return nil
		}
		return n.Fused("cols", colsKernel{d * l.Hidden, (d + 1) * l.Hidden}, x)
	}
	hf, err := l.applyDirection(n, 0, x, half(x, 0), mask, t, b)
	if err != nil {
		return nil, err
	}
	xr := n.Fused("reverse", &reverseRows{t: t, b: b}, x, mask)
	hr, err := l.applyDirection(n, 1, xr, half(xr, 1), mask, t, b)
	if err != nil {
		return nil, err
	}
	hr = n.Fused("reverse", &reverseRows{t: t, b: b}, hr, mask)
	h := n.Fused("concat", &concatKernel{}, hf, hr)
	return h, n.Err()
}

// applyDirection is one direction's recurrence on x (N×In) with highway
// input xh (N×Hidden, used when K = 3).
func (l *Layer) applyDirection(n *nn.Net, d int, x, xh, mask *autodiff.Node, t, b int) (*autodiff.Node, error) {
	if err := n.Err(); err != nil {
		return nil, err
	}
	w, wc, bias := l.direction(d)
	u, err := MatMul(n, x, n.P(w))
	if err != nil {
		return nil, err
	}
	op := recurrenceOp{Shape{T: t, B: b, H: l.Hidden, K: l.K(), Tanh: l.Tanh}}
	args := []*autodiff.Node{u}
	if op.K == 3 {
		args = append(args, xh)
	}
	args = append(args, n.P(wc), n.P(bias), mask)
	h, err := gorgonia.ApplyOp(op, args...)
	if err != nil {
		return nil, fmt.Errorf("sru: layer %s: %w", w.Name, err)
	}
	return h, nil
}

// Encoder is a stack of SRU layers.
type Encoder struct {
	Opts   Options
	Layers []*Layer
	// InputGrad makes the fused float32 stack compute the gradient for its
	// input x too, for a stack fed by another network (the ODE-RNN's
	// decoder); without it x is taken for the features and gets none. The
	// float64 graph path always propagates it.
	InputGrad bool
}

// NewEncoder adds the parameters of a stack with input size in.
func NewEncoder(ps *nn.Params, name string, in int, o Options, rng *rand.Rand) (*Encoder, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	e := &Encoder{Opts: o}
	for i := 0; i < o.Layers; i++ {
		e.Layers = append(e.Layers, NewLayer(ps, fmt.Sprintf("%s.%d", name, i), in, o, rng))
		in = o.OutDim()
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
func (e *Encoder) Apply(n *nn.Net, x, mask *autodiff.Node, t, b int, train bool) (*autodiff.Node, *Dropout, error) {
	h, _, drop, err := e.ApplyShared(n, x, mask, t, b, train)
	return h, drop, err
}

// Output32 returns the float32 values that a fused stack's float64 output
// node holds widened: set by the node's forward pass and unchanged until
// the next, so a float32 kernel that reads the output in the same graph
// run (forward or reverse) can take them instead of narrowing the node's
// values again — the same numbers, bit for bit.
type Output32 func() []float32

// ApplyShared is Apply that also returns the fused stack's Output32 (nil
// when the products are float64 and there is no fused stack).
func (e *Encoder) ApplyShared(n *nn.Net, x, mask *autodiff.Node, t, b int, train bool) (*autodiff.Node, Output32, *Dropout, error) {
	var drop *Dropout
	if train && e.Opts.Dropout > 0 && len(e.Layers) > 1 {
		drop = &Dropout{P: e.Opts.Dropout, keep: float32(1 / (1 - e.Opts.Dropout))}
	}
	if Float32Products {
		if drop != nil {
			for range e.Layers[1:] {
				drop.masks = append(drop.masks, make([]float32, t*b*e.Opts.OutDim()))
			}
		}
		args := []*autodiff.Node{x, mask}
		for _, l := range e.Layers {
			for d := 0; d < l.Dirs(); d++ {
				w, wc, bias := l.direction(d)
				args = append(args, n.P(w), n.P(wc), n.P(bias))
			}
		}
		st := newStack(e, t, b, drop)
		h := n.Fused("sru", st, args...)
		return h, func() []float32 { return st.h }, drop, n.Err()
	}
	var err error
	for i, l := range e.Layers {
		if x, err = l.Apply(n, x, mask, t, b); err != nil {
			return nil, nil, nil, err
		}
		if drop != nil && i < len(e.Layers)-1 {
			d, buf := n.Input("dropout", t*b, e.Opts.OutDim())
			drop.nodes = append(drop.nodes, buf)
			x = n.Mul(x, d)
		}
	}
	return x, nil, drop, n.Err()
}
