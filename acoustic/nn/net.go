package nn

import (
	"math"
	"math/rand"
	"strconv"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/optim"
)

// Net is a graph together with the binding of parameters to its nodes.
type Net struct {
	*autodiff.Graph
	nodes map[*optim.Param]*autodiff.Node
	order []*optim.Param
}

// NewNet returns an empty graph with no bound parameters.
func NewNet() *Net {
	return &Net{Graph: autodiff.New(), nodes: map[*optim.Param]*autodiff.Node{}}
}

// P is the node of parameter p in this graph, created on first use.
func (n *Net) P(p *optim.Param) *autodiff.Node {
	if v, ok := n.nodes[p]; ok {
		return v
	}
	v := n.Param(p.Name, p.Data, p.Rows, p.Cols)
	n.nodes[p] = v
	n.order = append(n.order, p)
	return v
}

// Bound lists the parameters used by this graph and their nodes, in order of
// first use.
func (n *Net) Bound() ([]*optim.Param, []*autodiff.Node) {
	ns := make([]*autodiff.Node, len(n.order))
	for i, p := range n.order {
		ns[i] = n.nodes[p]
	}
	return n.order, ns
}

// Params is an ordered collection of named parameters.
type Params struct {
	List []*optim.Param
}

// New adds a Glorot-initialised (±|Glorot| for a sign set) parameter.
func (ps *Params) New(name string, rows, cols int, sign optim.Sign, rng *rand.Rand) *optim.Param {
	p := optim.NewParam(name, rows, cols, sign)
	p.Glorot(rng)
	ps.List = append(ps.List, p)
	return p
}

// Zero adds a zero-initialised parameter (biases).
func (ps *Params) Zero(name string, rows, cols int) *optim.Param {
	p := optim.NewParam(name, rows, cols, optim.Free)
	ps.List = append(ps.List, p)
	return p
}

// Linear is y = x·W + b with W in×out and b a 1×out row.
type Linear struct{ W, B *optim.Param }

// NewLinear adds a Glorot-initialised layer with zero bias.
func NewLinear(ps *Params, name string, in, out int, rng *rand.Rand) *Linear {
	return &Linear{W: ps.New(name+".weight", in, out, optim.Free, rng), B: ps.Zero(name+".bias", 1, out)}
}

// Apply is x·W + b for a batch x (R×in).
func (l *Linear) Apply(n *Net, x *autodiff.Node) *autodiff.Node {
	return n.AddRow(n.MatMul(x, n.P(l.W)), n.P(l.B))
}

// MLP is a stack of Linear layers, each followed by ReLU.
type MLP struct{ Layers []*Linear }

// NewMLP adds layers in → hidden → … → hidden (layers of them).
func NewMLP(ps *Params, name string, in, hidden, layers int, rng *rand.Rand) *MLP {
	m := &MLP{}
	for i := 0; i < layers; i++ {
		m.Layers = append(m.Layers, NewLinear(ps, name+"."+strconv.Itoa(i), in, hidden, rng))
		in = hidden
	}
	return m
}

// Apply runs the stack with ReLU after every layer.
func (m *MLP) Apply(n *Net, x *autodiff.Node) *autodiff.Node {
	for _, l := range m.Layers {
		x = n.Relu(l.Apply(n, x))
	}
	return x
}

// Scalar is the value of a scalar node after a run (0 for nil).
func Scalar(n *autodiff.Node) float64 {
	if n == nil {
		return 0
	}
	return autodiff.Value(n)[0]
}

// LogSoftmax writes log softmax(l) into dst (which may alias l), with the
// maximum subtracted before the exponentials.
func LogSoftmax(dst, l []float64) {
	mx := math.Inf(-1)
	for _, v := range l {
		mx = math.Max(mx, v)
	}
	s := 0.0
	for _, v := range l {
		s += math.Exp(v - mx)
	}
	lse := mx + math.Log(s)
	for j, v := range l {
		dst[j] = v - lse
	}
}
