package sru

import (
	"fmt"
	"hash"
	"hash/fnv"

	"github.com/chewxy/hm"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"
)

// The fused recurrence as gorgonia operations. Every input and output is a
// float64 matrix, so all share one type variable.
//
//	recurrenceOp      (u, [x], wc, bias, mask)       → h            N×H
//	recurrenceGradOp  (u, [x], wc, bias, mask, dh)   → packed grads 1×L
//	partOp            (packed)                       → one gradient
//
// The packed gradient is du (N·K·H) | dx (N·H, only when K = 3) | dwc (2H) |
// dbias (2H); partOp copies its block out with the input's shape.

func matType(arity int) hm.Type {
	a := hm.TypeVariable('a')
	ts := make(hm.Types, arity+1)
	for i := range ts {
		ts[i] = a
	}
	return hm.NewFnType(ts...)
}

func hashOf(o fmt.Stringer) uint32 {
	h := fnv.New32a()
	h.Write([]byte(o.String()))
	return h.Sum32()
}

func floats(v gorgonia.Value, what string) ([]float64, error) {
	t, ok := v.(tensor.Tensor)
	if !ok {
		return nil, fmt.Errorf("sru: %s is %T, not a tensor", what, v)
	}
	d, ok := t.Data().([]float64)
	if !ok {
		return nil, fmt.Errorf("sru: %s holds %T, not float64", what, t.Data())
	}
	return d, nil
}

// inputs unpacks (u, [x], wc, bias, mask[, dh]) and checks their sizes.
func (s Shape) inputs(v []gorgonia.Value, withDH bool) (u, x, wc, bias, mask, dh []float64, err error) {
	vals := make([][]float64, len(v))
	for i := range v {
		if vals[i], err = floats(v[i], fmt.Sprintf("input %d", i)); err != nil {
			return
		}
	}
	i := 0
	next := func() []float64 { i++; return vals[i-1] }
	u = next()
	if s.K == 3 {
		x = next()
	}
	wc, bias, mask = next(), next(), next()
	if withDH {
		dh = next()
	}
	n, h := s.N(), s.H
	switch {
	case len(u) != n*s.K*h:
		err = fmt.Errorf("sru: U has %d values, want %d×%d", len(u), n, s.K*h)
	case s.K == 3 && len(x) != n*h:
		err = fmt.Errorf("sru: x has %d values, want %d×%d", len(x), n, h)
	case len(wc) != 2*h || len(bias) != 2*h:
		err = fmt.Errorf("sru: weight_c/bias have %d/%d values, want 2×%d", len(wc), len(bias), h)
	case len(mask) != n:
		err = fmt.Errorf("sru: mask has %d values, want %d", len(mask), n)
	case withDH && len(dh) != n*h:
		err = fmt.Errorf("sru: dh has %d values, want %d×%d", len(dh), n, h)
	}
	return
}

type recurrenceOp struct{ Shape }

func (o recurrenceOp) arity() int {
	if o.K == 3 {
		return 5
	}
	return 4
}
func (o recurrenceOp) Arity() int    { return o.arity() }
func (o recurrenceOp) Type() hm.Type { return matType(o.arity()) }
func (o recurrenceOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{o.N(), o.H}, nil
}
func (o recurrenceOp) Do(v ...gorgonia.Value) (gorgonia.Value, error) {
	u, x, wc, bias, mask, _, err := o.inputs(v, false)
	if err != nil {
		return nil, err
	}
	h := make([]float64, o.N()*o.H)
	o.Forward(u, x, wc, bias, mask, h, nil)
	return tensor.New(tensor.WithShape(o.N(), o.H), tensor.WithBacking(h)), nil
}
func (recurrenceOp) ReturnsPtr() bool        { return false }
func (recurrenceOp) CallsExtern() bool       { return false }
func (recurrenceOp) OverwritesInput() int    { return -1 }
func (o recurrenceOp) String() string        { return fmt.Sprintf("sru%+v", o.Shape) }
func (o recurrenceOp) WriteHash(h hash.Hash) { h.Write([]byte(o.String())) }
func (o recurrenceOp) Hashcode() uint32      { return hashOf(o) }
func (o recurrenceOp) DiffWRT(n int) []bool {
	d := make([]bool, n)
	for i := range d {
		d[i] = i < n-1 // not the mask
	}
	return d
}

func (o recurrenceOp) SymDiff(in gorgonia.Nodes, out, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	args := append(append(gorgonia.Nodes{}, in...), grad)
	packed, err := gorgonia.ApplyOp(recurrenceGradOp{o.Shape}, args...)
	if err != nil {
		return nil, err
	}
	n, h := o.N(), o.H
	blocks := [][2]int{{n, o.K * h}}
	if o.K == 3 {
		blocks = append(blocks, [2]int{n, h})
	}
	blocks = append(blocks, [2]int{1, 2 * h}, [2]int{1, 2 * h})
	res := make(gorgonia.Nodes, len(in))
	off := 0
	for i, b := range blocks {
		if res[i], err = gorgonia.ApplyOp(partOp{Off: off, Rows: b[0], Cols: b[1], Total: o.packedLen()}, packed); err != nil {
			return nil, err
		}
		off += b[0] * b[1]
	}
	return res, nil // the mask's gradient stays nil
}

func (s Shape) packedLen() int {
	n, h := s.N(), s.H
	l := n*s.K*h + 4*h
	if s.K == 3 {
		l += n * h
	}
	return l
}

type recurrenceGradOp struct{ Shape }

func (o recurrenceGradOp) arity() int    { return recurrenceOp(o).arity() + 1 }
func (o recurrenceGradOp) Arity() int    { return o.arity() }
func (o recurrenceGradOp) Type() hm.Type { return matType(o.arity()) }
func (o recurrenceGradOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{1, o.packedLen()}, nil
}
func (o recurrenceGradOp) Do(v ...gorgonia.Value) (gorgonia.Value, error) {
	u, x, wc, bias, mask, dh, err := o.inputs(v, true)
	if err != nil {
		return nil, err
	}
	n, h := o.N(), o.H
	p := make([]float64, o.packedLen())
	du, rest := p[:n*o.K*h], p[n*o.K*h:]
	var dx []float64
	if o.K == 3 {
		dx, rest = rest[:n*h], rest[n*h:]
	}
	o.Backward(u, x, wc, bias, mask, dh, du, dx, rest[:2*h], rest[2*h:4*h])
	return tensor.New(tensor.WithShape(1, len(p)), tensor.WithBacking(p)), nil
}
func (recurrenceGradOp) ReturnsPtr() bool        { return false }
func (recurrenceGradOp) CallsExtern() bool       { return false }
func (recurrenceGradOp) OverwritesInput() int    { return -1 }
func (o recurrenceGradOp) String() string        { return fmt.Sprintf("sruGrad%+v", o.Shape) }
func (o recurrenceGradOp) WriteHash(h hash.Hash) { h.Write([]byte(o.String())) }
func (o recurrenceGradOp) Hashcode() uint32      { return hashOf(o) }

// partOp copies Rows×Cols values from offset Off of a 1×Total row.
type partOp struct{ Off, Rows, Cols, Total int }

func (partOp) Arity() int    { return 1 }
func (partOp) Type() hm.Type { return matType(1) }
func (o partOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{o.Rows, o.Cols}, nil
}
func (o partOp) Do(v ...gorgonia.Value) (gorgonia.Value, error) {
	p, err := floats(v[0], "packed gradient")
	if err != nil {
		return nil, err
	}
	if len(p) != o.Total {
		return nil, fmt.Errorf("sru: packed gradient has %d values, want %d", len(p), o.Total)
	}
	d := append([]float64(nil), p[o.Off:o.Off+o.Rows*o.Cols]...)
	return tensor.New(tensor.WithShape(o.Rows, o.Cols), tensor.WithBacking(d)), nil
}
func (partOp) ReturnsPtr() bool     { return false }
func (partOp) CallsExtern() bool    { return false }
func (partOp) OverwritesInput() int { return -1 }
func (o partOp) String() string {
	return fmt.Sprintf("part{%d %d %d %d}", o.Off, o.Rows, o.Cols, o.Total)
}
func (o partOp) WriteHash(h hash.Hash) { h.Write([]byte(o.String())) }
func (o partOp) Hashcode() uint32      { return hashOf(o) }
