package autodiff

import (
	"fmt"

	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// Node is a value in a Graph: an input, a parameter, a constant or the result
// of an operation. It is gorgonia's node type.
type Node = gorgonia.Node

// Graph builds a float64 expression graph with sticky error handling.
type Graph struct {
	g   *gorgonia.ExprGraph
	err error
	n   int // counter for unique names
}

// New returns an empty graph.
func New() *Graph { return &Graph{g: gorgonia.NewGraph()} }

// Err is the first error met while building, or nil.
func (g *Graph) Err() error { return g.err }

// NodeCount is the number of nodes in the graph (for overhead reports).
func (g *Graph) NodeCount() int { return len(g.g.AllNodes()) }

// Fail records err as the graph's error (the first one stays) for an
// operation built outside this package, and returns nil.
func (g *Graph) Fail(op string, err error) *Node { return g.fail(op, err) }

func (g *Graph) fail(op string, err error) *Node {
	if g.err == nil && err != nil {
		g.err = fmt.Errorf("graph: %s: %w", op, err)
	}
	return nil
}

func (g *Graph) name(base string) string {
	g.n++
	return fmt.Sprintf("%s#%d", base, g.n)
}

func (g *Graph) matrix(name string, data []float64, rows, cols int) *Node {
	if g.err != nil {
		return nil
	}
	if len(data) != rows*cols {
		return g.fail(name, fmt.Errorf("%d values for a %d×%d matrix", len(data), rows, cols))
	}
	t := tensor.New(tensor.WithShape(rows, cols), tensor.WithBacking(data))
	return gorgonia.NewMatrix(g.g, tensor.Float64, gorgonia.WithShape(rows, cols),
		gorgonia.WithName(g.name(name)), gorgonia.WithValue(t))
}

// Input is a rows×cols matrix node whose value is the returned slice: write
// new data into the slice before each run.
func (g *Graph) Input(name string, rows, cols int) (*Node, []float64) {
	data := make([]float64, rows*cols)
	return g.matrix(name, data, rows, cols), data
}

// Param is a rows×cols matrix node sharing data as its backing array; an
// update of data in place is seen by the next run.
func (g *Graph) Param(name string, data []float64, rows, cols int) *Node {
	return g.matrix(name, data, rows, cols)
}

// Const is a rows×cols matrix node holding a copy of data.
func (g *Graph) Const(name string, data []float64, rows, cols int) *Node {
	return g.matrix(name, append([]float64(nil), data...), rows, cols)
}

// Scalar is a constant scalar node.
func (g *Graph) Scalar(v float64) *Node {
	if g.err != nil {
		return nil
	}
	return gorgonia.NewConstant(v)
}

func (g *Graph) bin(op string, f func(a, b *Node) (*Node, error), a, b *Node) *Node {
	if g.err != nil || a == nil || b == nil {
		return g.fail(op, fmt.Errorf("nil operand"))
	}
	n, err := f(a, b)
	if err != nil {
		return g.fail(op, err)
	}
	return n
}

func (g *Graph) un(op string, f func(a *Node) (*Node, error), a *Node) *Node {
	if g.err != nil || a == nil {
		return g.fail(op, fmt.Errorf("nil operand"))
	}
	n, err := f(a)
	if err != nil {
		return g.fail(op, err)
	}
	return n
}

// MatMul is the matrix product a·b.
func (g *Graph) MatMul(a, b *Node) *Node { return g.bin("matmul", gorgonia.Mul, a, b) }

// Add is a + b, element-wise (same shapes, or b a scalar).
func (g *Graph) Add(a, b *Node) *Node { return g.bin("add", gorgonia.Add, a, b) }

// Sub is a − b, element-wise.
func (g *Graph) Sub(a, b *Node) *Node { return g.bin("sub", gorgonia.Sub, a, b) }

// Mul is the element-wise product a ⊙ b.
func (g *Graph) Mul(a, b *Node) *Node { return g.bin("mul", gorgonia.HadamardProd, a, b) }

// Div is the element-wise quotient a / b.
func (g *Graph) Div(a, b *Node) *Node { return g.bin("div", gorgonia.HadamardDiv, a, b) }

// Scale is c·a for a constant c.
func (g *Graph) Scale(a *Node, c float64) *Node { return g.Mul(a, g.Scalar(c)) }

// AddConst is a + c for a constant c.
func (g *Graph) AddConst(a *Node, c float64) *Node { return g.Add(a, g.Scalar(c)) }

// AddRow adds the 1×C row r to every row of the R×C matrix x.
func (g *Graph) AddRow(x, r *Node) *Node {
	return g.bin("addrow", func(a, b *Node) (*Node, error) {
		return gorgonia.BroadcastAdd(a, b, nil, []byte{0})
	}, x, r)
}

// MulRow multiplies every row of the R×C matrix x by the 1×C row r.
func (g *Graph) MulRow(x, r *Node) *Node {
	return g.bin("mulrow", func(a, b *Node) (*Node, error) {
		return gorgonia.BroadcastHadamardProd(a, b, nil, []byte{0})
	}, x, r)
}

// MulCol multiplies every column of the R×C matrix x by the R×1 column c.
func (g *Graph) MulCol(x, c *Node) *Node {
	return g.bin("mulcol", func(a, b *Node) (*Node, error) {
		return gorgonia.BroadcastHadamardProd(a, b, nil, []byte{1})
	}, x, c)
}

// AddCol adds the R×1 column c to every column of the R×C matrix x.
func (g *Graph) AddCol(x, c *Node) *Node {
	return g.bin("addcol", func(a, b *Node) (*Node, error) {
		return gorgonia.BroadcastAdd(a, b, nil, []byte{1})
	}, x, c)
}

// Outer is the R×C matrix col_i + row_j of an R×1 column and a 1×C row.
func (g *Graph) Outer(col, row *Node) *Node {
	return g.bin("outer", func(a, b *Node) (*Node, error) {
		return gorgonia.BroadcastAdd(a, b, []byte{1}, []byte{0})
	}, col, row)
}

// Tanh is tanh(a), element-wise.
func (g *Graph) Tanh(a *Node) *Node { return g.un("tanh", gorgonia.Tanh, a) }

// Sigmoid is σ(a) = 1/(1+e^{−a}), element-wise.
func (g *Graph) Sigmoid(a *Node) *Node { return g.un("sigmoid", gorgonia.Sigmoid, a) }

// Softplus is log(1+e^a), element-wise.
func (g *Graph) Softplus(a *Node) *Node { return g.un("softplus", gorgonia.Softplus, a) }

// Relu is max(a, 0), element-wise.
func (g *Graph) Relu(a *Node) *Node { return g.un("relu", gorgonia.Rectify, a) }

// Abs is |a|, element-wise.
func (g *Graph) Abs(a *Node) *Node { return g.un("abs", gorgonia.Abs, a) }

// Log is the natural logarithm, element-wise.
func (g *Graph) Log(a *Node) *Node { return g.un("log", gorgonia.Log, a) }

// Exp is e^a, element-wise.
func (g *Graph) Exp(a *Node) *Node { return g.un("exp", gorgonia.Exp, a) }

// Neg is −a.
func (g *Graph) Neg(a *Node) *Node { return g.un("neg", gorgonia.Neg, a) }

// Square is a², element-wise.
func (g *Graph) Square(a *Node) *Node { return g.un("square", gorgonia.Square, a) }

// Mean is the mean of all entries, a scalar.
func (g *Graph) Mean(a *Node) *Node {
	return g.un("mean", func(a *Node) (*Node, error) { return gorgonia.Mean(a) }, a)
}

// Sum is the sum of all entries, a scalar.
func (g *Graph) Sum(a *Node) *Node {
	return g.un("sum", func(a *Node) (*Node, error) { return gorgonia.Sum(a) }, a)
}

// StopGradient is sg(a): the value of a, through which no gradient flows.
func (g *Graph) StopGradient(a *Node) *Node {
	return g.un("stopgrad", func(a *Node) (*Node, error) { return gorgonia.ApplyOp(stopGradOp{}, a) }, a)
}

// Value is the float64 data of a node after a run (nil before).
func Value(n *Node) []float64 {
	v := n.Value()
	if v == nil {
		return nil
	}
	if d, ok := v.Data().([]float64); ok {
		return d
	}
	if f, ok := v.Data().(float64); ok {
		return []float64{f}
	}
	return nil
}

// Rows is the block of rows lo ≤ i < hi of the matrix a.
func (g *Graph) Rows(a *Node, lo, hi int) *Node {
	return g.un("rows", func(a *Node) (*Node, error) { return gorgonia.Slice(a, gorgonia.S(lo, hi)) }, a)
}

// T is the transpose of the matrix a.
func (g *Graph) T(a *Node) *Node {
	return g.un("transpose", func(a *Node) (*Node, error) { return gorgonia.Transpose(a) }, a)
}

// ConcatRows stacks matrices with equal column counts on top of each other.
func (g *Graph) ConcatRows(ns ...*Node) *Node {
	if g.err != nil {
		return nil
	}
	for _, n := range ns {
		if n == nil {
			return g.fail("concat", fmt.Errorf("nil operand"))
		}
	}
	n, err := gorgonia.Concat(0, ns...)
	if err != nil {
		return g.fail("concat", err)
	}
	return n
}
