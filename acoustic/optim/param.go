package optim

import (
	"fmt"
	"math"
	"math/rand"
)

// Sign is the set a parameter's entries must stay in.
type Sign int8

const (
	Free   Sign = 0  // any real value
	NonNeg Sign = 1  // entries ≥ 0
	NonPos Sign = -1 // entries ≤ 0
)

// Param is a trainable rows×cols matrix, row-major, with its gradient.
type Param struct {
	Name       string
	Rows, Cols int
	Data, Grad []float64
	Sign       Sign
}

// NewParam returns a zero parameter.
func NewParam(name string, rows, cols int, sign Sign) *Param {
	return &Param{Name: name, Rows: rows, Cols: cols, Sign: sign,
		Data: make([]float64, rows*cols), Grad: make([]float64, rows*cols)}
}

// Glorot fills p with Glorot-uniform values U(±√(6/(rows+cols))); for a
// sign-constrained parameter the magnitudes get the parameter's sign
// (±|Glorot|, as DESIGN.md §3 asks).
func (p *Param) Glorot(rng *rand.Rand) {
	lim := math.Sqrt(6 / float64(p.Rows+p.Cols))
	for i := range p.Data {
		v := (2*rng.Float64() - 1) * lim
		switch p.Sign {
		case NonNeg:
			v = math.Abs(v)
		case NonPos:
			v = -math.Abs(v)
		}
		p.Data[i] = v
	}
}

// Project moves every entry onto the sign set: an entry that crossed zero
// becomes zero.
func (p *Param) Project() {
	switch p.Sign {
	case NonNeg:
		for i, v := range p.Data {
			if v < 0 {
				p.Data[i] = 0
			}
		}
	case NonPos:
		for i, v := range p.Data {
			if v > 0 {
				p.Data[i] = 0
			}
		}
	}
}

// InSignSet reports whether every entry is in the parameter's sign set.
func (p *Param) InSignSet() bool {
	for _, v := range p.Data {
		if (p.Sign == NonNeg && v < 0) || (p.Sign == NonPos && v > 0) {
			return false
		}
	}
	return true
}

// ProjectSigns projects every parameter onto its sign set; it is the default
// AfterStep hook of the optimizers.
func ProjectSigns(ps []*Param) {
	for _, p := range ps {
		p.Project()
	}
}

// ZeroGrad clears the gradients.
func ZeroGrad(ps []*Param) {
	for _, p := range ps {
		clear(p.Grad)
	}
}

// ClipGradNorm scales all gradients together so that their joint L2 norm is
// at most max (max ≤ 0: no clipping); it returns the norm before clipping.
func ClipGradNorm(ps []*Param, max float64) float64 {
	s := 0.0
	for _, p := range ps {
		for _, g := range p.Grad {
			s += g * g
		}
	}
	n := math.Sqrt(s)
	if max > 0 && n > max {
		f := max / n
		for _, p := range ps {
			for i := range p.Grad {
				p.Grad[i] *= f
			}
		}
	}
	return n
}

// Check returns an error naming the first parameter with a non-finite value
// or gradient.
func Check(ps []*Param) error {
	for _, p := range ps {
		for i := range p.Data {
			if math.IsNaN(p.Data[i]) || math.IsInf(p.Data[i], 0) {
				return fmt.Errorf("optim: parameter %s[%d] is %v", p.Name, i, p.Data[i])
			}
			if math.IsNaN(p.Grad[i]) || math.IsInf(p.Grad[i], 0) {
				return fmt.Errorf("optim: gradient of %s[%d] is %v", p.Name, i, p.Grad[i])
			}
		}
	}
	return nil
}
