package am

import (
	"fmt"
	"hash"
	"hash/fnv"
	"math"
	"runtime"
	"sync"

	"github.com/chewxy/hm"
	"gorgonia.org/gorgonia"
	"gorgonia.org/tensor"

	"github.com/strode-asr/strode/acoustic/sru"
)

// xentOp is the weighted cross-entropy of a log-softmax as one fused
// operation: for logits L (N×P), targets y (N×1, pdf-ids as float64) and
// frame weights w (N×1, 0 on padded frames),
//
//	loss = −Σ_r w_r · log softmax(L_r)[y_r]      (a 1×1 matrix)
//
// computed with the row maximum subtracted. Its gradient w.r.t. L is
// w_r·(softmax(L_r) − onehot(y_r)) (xentGradOp); y and w get none.
//
// With label smoothing ε (Smooth, training only: --label-smoothing) the
// target is (1−ε)·onehot(y_r) + ε/P on every pdf (Szegedy et al. 2016):
//
//	loss = −Σ_r w_r · [(1−ε)·log softmax(L_r)[y_r] + ε/P·Σ_j log softmax(L_r)[j]]
//
// and the gradient w_r·(softmax(L_r) − (1−ε)·onehot(y_r) − ε/P).
//
// With distillation λ (Distill, training only: --distill-weight) a fourth
// input q (N×P, a teacher's posteriors) joins the targets:
//
//	loss = −Σ_r w_r · [(1−λ)·t_r + λ·Σ_j q_rj·log softmax(L_r)[j]]
//
// t_r the term above (smoothed or not), and the gradient
// w_r·(c_r·softmax(L_r) − (1−λ)·target_r − λ·q_r), c_r = 1 − λ + λ·Σ_j q_rj
// (1 for posteriors that sum to 1; the sum is taken as it is, so the
// gradient is the loss's own whatever the rounding of q). λ = 0 is the
// three-input op, bit for bit.
type xentOp struct {
	N, P    int
	Smooth  float64
	Distill float64
}

// arity is 3, or 4 with the teacher's posteriors.
func (o xentOp) arity() int {
	if o.Distill != 0 {
		return 4
	}
	return 3
}

func xentType(arity int) hm.Type {
	a := hm.TypeVariable('a')
	ts := make(hm.Types, arity+1)
	for i := range ts {
		ts[i] = a
	}
	return hm.NewFnType(ts...)
}

func vals(v []gorgonia.Value) ([][]float64, error) {
	out := make([][]float64, len(v))
	for i, x := range v {
		t, ok := x.(tensor.Tensor)
		if !ok {
			return nil, fmt.Errorf("am: xent input %d is %T", i, x)
		}
		d, ok := t.Data().([]float64)
		if !ok {
			return nil, fmt.Errorf("am: xent input %d holds %T", i, t.Data())
		}
		out[i] = d
	}
	return out, nil
}

// expRow sets e[j] = exp(l[j] − m), m = max l, and returns m and Σ e. With
// the products in float32 (training) the exponentials are float32,
// vectorised (sru.ExpInPlace: about 2 ulp, 1.2e−7 relative, clamped below
// e^−87, which a sum that holds e^0 = 1 never notices), summed in float64:
// math.Exp was the largest cost of the cross-entropy. The gradient checks'
// float64 graph (sru.Float32Products off) keeps math.Exp, so that finite
// differences see no float32 rounding. e32 is scratch of len(l).
func expRow(e, l []float64, e32 []float32) (m, sum float64) {
	m = math.Inf(-1)
	for _, v := range l {
		m = math.Max(m, v)
	}
	if !sru.Float32Products {
		for j, v := range l {
			e[j] = math.Exp(v - m)
			sum += e[j]
		}
		return m, sum
	}
	for j, v := range l {
		e32[j] = float32(v - m)
	}
	sru.ExpInPlace(e32)
	for j, v := range e32 {
		e[j] = float64(v)
		sum += e[j]
	}
	return m, sum
}

func (o xentOp) check(v [][]float64) error {
	if len(v[0]) != o.N*o.P || len(v[1]) != o.N || len(v[2]) != o.N {
		return fmt.Errorf("am: xent sizes %d/%d/%d, want %d×%d, %d, %d", len(v[0]), len(v[1]), len(v[2]), o.N, o.P, o.N, o.N)
	}
	if o.Distill != 0 && (len(v) < 4 || len(v[3]) != o.N*o.P) {
		return fmt.Errorf("am: xent with distillation needs the teacher's %d×%d posteriors", o.N, o.P)
	}
	for r, y := range v[1] {
		if v[2][r] != 0 && (y < 0 || int(y) >= o.P) {
			return fmt.Errorf("am: frame %d: target %g outside [0, %d)", r, y, o.P)
		}
	}
	return nil
}

// rows calls fn(r0, r1) for a split of the N rows over the cores (one
// call for small inputs). Rows are independent, so the split does not
// change any value.
func (o xentOp) rows(fn func(r0, r1 int)) {
	w := runtime.GOMAXPROCS(0)
	if o.N*o.P < 1<<16 || w < 2 {
		fn(0, o.N)
		return
	}
	var wg sync.WaitGroup
	for i := 0; i < w; i++ {
		r0, r1 := i*o.N/w, (i+1)*o.N/w
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(r0, r1)
		}()
	}
	wg.Wait()
}

func (o xentOp) Arity() int    { return o.arity() }
func (o xentOp) Type() hm.Type { return xentType(o.arity()) }
func (xentOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{1, 1}, nil
}
func (o xentOp) Do(v ...gorgonia.Value) (gorgonia.Value, error) {
	in, err := vals(v)
	if err != nil {
		return nil, err
	}
	if err := o.check(in); err != nil {
		return nil, err
	}
	l, y, w := in[0], in[1], in[2]
	// Rows in parallel, then summed in row order: the same sum as a loop.
	terms := make([]float64, o.N)
	o.rows(func(r0, r1 int) {
		row, e32 := make([]float64, o.P), make([]float32, o.P)
		for r := r0; r < r1; r++ {
			if w[r] != 0 {
				lr := l[r*o.P : (r+1)*o.P]
				m, sum := expRow(row, lr, e32)
				lse := m + math.Log(sum)
				for j, v := range lr {
					row[j] = v - lse
				}
				t := row[int(y[r])]
				if o.Smooth != 0 {
					sum := 0.0
					for _, v := range row {
						sum += v
					}
					t = (1-o.Smooth)*t + o.Smooth/float64(o.P)*sum
				}
				if o.Distill != 0 {
					t = (1-o.Distill)*t + o.Distill*softTerm(in[3][r*o.P:(r+1)*o.P], row)
				}
				terms[r] = w[r] * t
			}
		}
	})
	loss := 0.0
	for r, t := range terms {
		if w[r] != 0 {
			loss -= t
		}
	}
	return tensor.New(tensor.WithShape(1, 1), tensor.WithBacking([]float64{loss})), nil
}
func (xentOp) ReturnsPtr() bool     { return false }
func (xentOp) CallsExtern() bool    { return false }
func (xentOp) OverwritesInput() int { return -1 }
func (o xentOp) String() string {
	return fmt.Sprintf("xent{%d %d %g %g}", o.N, o.P, o.Smooth, o.Distill)
}
func (o xentOp) WriteHash(h hash.Hash) { h.Write([]byte(o.String())) }
func (o xentOp) Hashcode() uint32 {
	h := fnv.New32a()
	o.WriteHash(h)
	return h.Sum32()
}
func (o xentOp) DiffWRT(int) []bool {
	d := make([]bool, o.arity()) // the targets, weights and posteriors are data
	d[0] = true
	return d
}
func (o xentOp) SymDiff(in gorgonia.Nodes, out, grad *gorgonia.Node) (gorgonia.Nodes, error) {
	g, err := gorgonia.ApplyOp(xentGradOp(o), append(append(gorgonia.Nodes{}, in...), grad)...)
	if err != nil {
		return nil, err
	}
	gs := make(gorgonia.Nodes, len(in))
	gs[0] = g
	return gs, nil
}

// softTerm is Σ_j q_j·l_j: the distillation target q's part of the log-
// likelihood of the log-softmax row l.
func softTerm[T float32 | float64](q []float64, l []T) float64 {
	t := 0.0
	for j, v := range q {
		t += v * float64(l[j])
	}
	return t
}

type xentGradOp xentOp

func (o xentGradOp) Arity() int    { return xentOp(o).arity() + 1 }
func (o xentGradOp) Type() hm.Type { return xentType(xentOp(o).arity() + 1) }
func (o xentGradOp) InferShape(...gorgonia.DimSizer) (tensor.Shape, error) {
	return tensor.Shape{o.N, o.P}, nil
}
func (o xentGradOp) Do(v ...gorgonia.Value) (gorgonia.Value, error) {
	in, err := vals(v)
	if err != nil {
		return nil, err
	}
	a := xentOp(o).arity()
	if err := xentOp(o).check(in[:a]); err != nil {
		return nil, err
	}
	l, y, w, g := in[0], in[1], in[2], in[a][0]
	d := make([]float64, o.N*o.P)
	xentOp(o).rows(func(r0, r1 int) {
		e32 := make([]float32, o.P)
		for r := r0; r < r1; r++ {
			if w[r] == 0 {
				continue
			}
			dr := d[r*o.P : (r+1)*o.P]
			_, sum := expRow(dr, l[r*o.P:(r+1)*o.P], e32) // softmax = e/Σe, one pass of exp
			s := g * w[r]
			if o.Distill != 0 {
				q := in[3][r*o.P : (r+1)*o.P]
				distillGrad(dr, q, sum, s, o.Smooth, o.Distill, int(y[r]))
				continue
			}
			u := s * o.Smooth / float64(o.P) // the smoothed target's uniform part
			for j := range dr {
				dr[j] = s*dr[j]/sum - u
			}
			dr[int(y[r])] -= s * (1 - o.Smooth)
		}
	})
	return tensor.New(tensor.WithShape(o.N, o.P), tensor.WithBacking(d)), nil
}
func (xentGradOp) ReturnsPtr() bool     { return false }
func (xentGradOp) CallsExtern() bool    { return false }
func (xentGradOp) OverwritesInput() int { return -1 }
func (o xentGradOp) String() string {
	return fmt.Sprintf("xentGrad{%d %d %g %g}", o.N, o.P, o.Smooth, o.Distill)
}
func (o xentGradOp) WriteHash(h hash.Hash) { h.Write([]byte(o.String())) }
func (o xentGradOp) Hashcode() uint32 {
	h := fnv.New32a()
	o.WriteHash(h)
	return h.Sum32()
}

// distillGrad sets d, which holds e^{l_j−max} on entry (Σ = sum), to
// s·(c·softmax − (1−λ)·((1−ε)·onehot(y) + ε/P) − λ·q), c = 1 − λ + λ·Σq:
// the gradient of xentOp's distillation loss for one row, weight s.
func distillGrad[T float32 | float64](d []T, q []float64, sum, s, smooth, lambda float64, y int) {
	qsum := 0.0
	for _, v := range q {
		qsum += v
	}
	c := s * (1 - lambda + lambda*qsum) / sum
	u := s * (1 - lambda) * smooth / float64(len(d))
	sl := s * lambda
	dy := c*float64(d[y]) - u - sl*q[y] - s*(1-lambda)*(1-smooth)
	for j, e := range d {
		d[j] = T(c*float64(e) - u - sl*q[j])
	}
	d[y] = T(dy)
}
