package autodiff

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// stopGradOp is the identity in the forward pass and blocks the gradient:
// sg(t) in Φ(t, z) = sg(t) + softplus(a(t) + b(z)).
type stopGradOp struct{}

func (stopGradOp) Arity() int { return 1 }
func (stopGradOp) Type() hm.Type {
	a := hm.TypeVariable('a')
	return hm.NewFnType(a, a)
}
func (stopGradOp) InferShape(in ...gorgonia.DimSizer) (tensor.Shape, error) {
	s, ok := in[0].(tensor.Shape)
	if !ok {
		return nil, fmt.Errorf("stopgrad: input is not a shape")
	}
	return s.Clone(), nil
}
func (stopGradOp) Do(v ...gorgonia.Value) (gorgonia.Value, error) {
	t, ok := v[0].(tensor.Tensor)
	if !ok {
		return nil, fmt.Errorf("stopgrad: input is %T, not a tensor", v[0])
	}
	return t.Clone().(tensor.Tensor), nil
}
func (stopGradOp) ReturnsPtr() bool      { return false }
func (stopGradOp) CallsExtern() bool     { return false }
func (stopGradOp) OverwritesInput() int  { return -1 }
func (stopGradOp) String() string        { return "sg" }
func (stopGradOp) WriteHash(h hash.Hash) { h.Write([]byte("stopgrad")) }
func (o stopGradOp) Hashcode() uint32 {
	h := fnv.New32a()
	o.WriteHash(h)
	return h.Sum32()
}
func (stopGradOp) DiffWRT(int) []bool { return []bool{false} }
func (stopGradOp) SymDiff(in gorgonia.Nodes, out, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	return gorgonia.Nodes{nil}, nil
}
