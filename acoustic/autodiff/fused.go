package autodiff

import (
	"fmt"
	"hash"
	"hash/fnv"
	"sync/atomic"

	"github.com/chewxy/hm"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Kernel is a fused operation written by hand: a forward pass over plain
// row-major float64 matrices and its reverse pass. Graph.Fused turns it into
// one graph node, so a computation that would take hundreds of small nodes
// (e.g. the K Euler steps of an ODE solve) costs one node's machinery.
type Kernel interface {
	// Shape gives the output rows and columns from the input shapes, or an
	// error if they do not fit. It is called once, when the node is made:
	// a kernel may size its buffers there.
	Shape(in [][2]int) (rows, cols int, err error)
	// Forward writes the output (zeroed) for the inputs; it may keep
	// intermediate values for the next Backward.
	Forward(out []float64, in [][]float64)
	// Backward writes d cost/d in[i] into din[i] (zeroed, same layout as
	// in[i]) given dout = d cost/d output, for the inputs of the latest
	// Forward.
	Backward(din [][]float64, dout []float64, in [][]float64)
}

var fusedIDs atomic.Int64

// fusedState shares the reverse pass among the per-input gradient nodes:
// the first one to run computes every input's gradient.
type fusedState struct {
	k        Kernel
	id       int64
	name     string
	fwdGen   int64 // incremented by every Forward
	bwdGen   int64 // fwdGen of the cached gradients
	din      [][]float64
	out      []float64 // the forward output, reused from run to run
	inShape  [][2]int
	outShape [2]int // k.Shape's, once: Shape may (re)allocate a kernel's buffers
}

// Fused applies the kernel to the input matrices as one node.
func (g *Graph) Fused(name string, k Kernel, inputs ...*Node) *Node {
	if g.err != nil {
		return nil
	}
	shapes := make([][2]int, len(inputs))
	for i, n := range inputs {
		if n == nil {
			return g.fail(name, fmt.Errorf("nil operand"))
		}
		s := n.Shape()
		if len(s) != 2 {
			return g.fail(name, fmt.Errorf("input %d has shape %v, want a matrix", i, s))
		}
		shapes[i] = [2]int{s[0], s[1]}
	}
	r, c, err := k.Shape(shapes)
	if err != nil {
		return g.fail(name, err)
	}
	st := &fusedState{k: k, id: fusedIDs.Add(1), name: name, inShape: shapes, outShape: [2]int{r, c}}
	n, err := gorgonia.ApplyOp(&fusedOp{st}, inputs...)
	if err != nil {
		return g.fail(name, err)
	}
	return n
}

func matrixType(n int) hm.Type {
	a := hm.TypeVariable('a')
	ts := make([]hm.Type, n+1)
	for i := range ts {
		ts[i] = a
	}
	return hm.NewFnType(ts...)
}

func floats(v gorgonia.Value) ([]float64, error) {
	d, ok := v.Data().([]float64)
	if !ok {
		return nil, fmt.Errorf("input is %T, want []float64", v.Data())
	}
	return d, nil
}

type fusedOp struct{ st *fusedState }

func (o *fusedOp) Arity() int    { return len(o.st.inShape) }
func (o *fusedOp) Type() hm.Type { return matrixType(len(o.st.inShape)) }
func (o *fusedOp) InferShape(in ...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{o.st.outShape[0], o.st.outShape[1]}, nil
}
func (o *fusedOp) Do(vs ...gorgonia.Value) (gorgonia.Value, error) {
	in := make([][]float64, len(vs))
	for i, v := range vs {
		d, err := floats(v)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", o.st.name, err)
		}
		in[i] = d
	}
	// One output buffer per node, reused by every run: a fresh one per
	// run was garbage of the graph's whole size each minibatch, which the
	// collector let pile up to twice the live heap. Nothing keeps the
	// previous run's value: the machine overwrites it in this run too.
	r, c := o.st.outShape[0], o.st.outShape[1]
	if o.st.out == nil {
		o.st.out = make([]float64, r*c)
	} else {
		clear(o.st.out)
	}
	out := o.st.out
	o.st.k.Forward(out, in)
	o.st.fwdGen++
	return tensor.New(tensor.WithShape(r, c), tensor.WithBacking(out)), nil
}
func (o *fusedOp) ReturnsPtr() bool     { return false }
func (o *fusedOp) CallsExtern() bool    { return false }
func (o *fusedOp) OverwritesInput() int { return -1 }
func (o *fusedOp) String() string       { return fmt.Sprintf("%s#%d", o.st.name, o.st.id) }
func (o *fusedOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "fused %s %d", o.st.name, o.st.id)
}
func (o *fusedOp) Hashcode() uint32 {
	h := fnv.New32a()
	o.WriteHash(h)
	return h.Sum32()
}
func (o *fusedOp) DiffWRT(n int) []bool {
	d := make([]bool, n)
	for i := range d {
		d[i] = true
	}
	return d
}
func (o *fusedOp) SymDiff(inputs gorgonia.Nodes, output, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	out := make(gorgonia.Nodes, len(inputs))
	for i := range inputs {
		args := append(gorgonia.Nodes{grad}, inputs...)
		n, err := gorgonia.ApplyOp(&fusedGradOp{st: o.st, i: i}, args...)
		if err != nil {
			return nil, err
		}
		out[i] = n
	}
	return out, nil
}

// fusedGradOp is d cost/d input i of a fused op; its inputs are dout and
// the forward inputs.
type fusedGradOp struct {
	st *fusedState
	i  int
}

func (o *fusedGradOp) Arity() int    { return 1 + len(o.st.inShape) }
func (o *fusedGradOp) Type() hm.Type { return matrixType(1 + len(o.st.inShape)) }
func (o *fusedGradOp) InferShape(in ...gorgonia.DimSizer) (tensor.Shape, error) {
	s := o.st.inShape[o.i]
	return tensor.Shape{s[0], s[1]}, nil
}
func (o *fusedGradOp) Do(vs ...gorgonia.Value) (gorgonia.Value, error) {
	st := o.st
	if st.din == nil || st.bwdGen != st.fwdGen {
		dout, err := floats(vs[0])
		if err != nil {
			return nil, fmt.Errorf("%s gradient: %w", st.name, err)
		}
		in := make([][]float64, len(vs)-1)
		for i, v := range vs[1:] {
			if in[i], err = floats(v); err != nil {
				return nil, fmt.Errorf("%s gradient: %w", st.name, err)
			}
		}
		if st.din == nil {
			st.din = make([][]float64, len(in))
			for i, s := range st.inShape {
				st.din[i] = make([]float64, s[0]*s[1])
			}
		}
		for _, d := range st.din {
			clear(d)
		}
		st.k.Backward(st.din, dout, in)
		st.bwdGen = st.fwdGen
	}
	s := st.inShape[o.i]
	// din[i] itself, not a copy: only this node reads it, and the next
	// Backward rewrites it, so whatever the machine does with it in place
	// cannot leak into another gradient (and a copy of every parameter's
	// gradient per run is what this saves).
	return tensor.New(tensor.WithShape(s[0], s[1]), tensor.WithBacking(st.din[o.i])), nil
}
func (o *fusedGradOp) ReturnsPtr() bool     { return false }
func (o *fusedGradOp) CallsExtern() bool    { return false }
func (o *fusedGradOp) OverwritesInput() int { return -1 }
func (o *fusedGradOp) String() string {
	return fmt.Sprintf("∂%s#%d/∂in%d", o.st.name, o.st.id, o.i)
}
func (o *fusedGradOp) WriteHash(h hash.Hash) {
	fmt.Fprintf(h, "fusedgrad %s %d %d", o.st.name, o.st.id, o.i)
}
func (o *fusedGradOp) Hashcode() uint32 {
	h := fnv.New32a()
	o.WriteHash(h)
	return h.Sum32()
}

// Columns is the block of columns lo ≤ j < hi of the matrix a, as a fused
// node (a copy forward, a scatter backward): how a kernel that computes
// several results in one pass, side by side in one output, hands them to
// different consumers.
func (g *Graph) Columns(a *Node, lo, hi int) *Node {
	return g.Fused("columns", &columnsKernel{lo: lo, hi: hi}, a)
}

type columnsKernel struct{ lo, hi, cols int }

func (k *columnsKernel) Shape(in [][2]int) (int, int, error) {
	if len(in) != 1 || k.lo < 0 || k.lo >= k.hi || k.hi > in[0][1] {
		return 0, 0, fmt.Errorf("columns %d…%d of %v", k.lo, k.hi, in)
	}
	k.cols = in[0][1]
	return in[0][0], k.hi - k.lo, nil
}

func (k *columnsKernel) Forward(out []float64, in [][]float64) {
	w := k.hi - k.lo
	for r := 0; r < len(out)/w; r++ {
		copy(out[r*w:(r+1)*w], in[0][r*k.cols+k.lo:r*k.cols+k.hi])
	}
}

func (k *columnsKernel) Backward(din [][]float64, dout []float64, in [][]float64) {
	w := k.hi - k.lo
	for r := 0; r < len(dout)/w; r++ {
		copy(din[0][r*k.cols+k.lo:r*k.cols+k.hi], dout[r*w:(r+1)*w])
	}
}
