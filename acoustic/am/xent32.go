package am

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/sru"
)

// affineXent is the output layer and xentOp's cross-entropy as one float32
// kernel: the graph of a training or evaluation minibatch when the products
// run in float32 (sru.Float32Products). Its inputs are sru.AffineSum's — x₁,
// W₁, x₂, W₂, …, b — then the targets y (N×1) and the frame weights w (N×1);
// its output is xentOp's 1×1 loss. With distillation (xentOp's Distill) a
// last input, the teacher's posteriors q (N×P), follows the weights.
//
// Fusing them keeps the N×P logits in float32 from the product to the
// softmax and back: the separate nodes held a float64 copy of the logits
// and made a float64 N×P gradient every minibatch (at the paper's size,
// 8,000 frames × 5,000 pdfs, 320 MB each) and widened and narrowed both.
// The arithmetic is xentOp's step for step — the float32 logits are the
// values the float64 graph widened, the exponentials float32
// (sru.ExpInPlace), sums, log-sum-exp and the gradient in float64, rounded
// to float32 where linear32 narrowed it — so the loss and every gradient
// are bit for bit those of AffineSum followed by xentOp.
//
// The forward pass keeps the exponentials e^{l−max} in the gradient's
// buffer, so the reverse pass scales them instead of computing them again;
// the logits themselves stay intact for Stats and Output (Logits32).
type affineXent struct {
	aff     *sru.Affine32
	n, p    int
	smooth  float64
	distill float64
	data    int       // inputs after the affine's: y, w and, distilling, q
	logits  []float32 // the latest Forward's N×P logits (the affine's buffer)
	dy      []float32 // e^{l−max} per row after Forward; the gradient after Backward
	sum     []float64 // Σ_j e^{l_j−max} per row
	best    []int32   // arg-max of each row's logits (the first, as Stats counted)
	terms   []float64
}

func newAffineXent(smooth, distill float64) *affineXent {
	k := &affineXent{aff: sru.NewAffine32(), smooth: smooth, distill: distill, data: 2}
	if distill != 0 {
		k.data = 3
	}
	return k
}

func (k *affineXent) Shape(in [][2]int) (rows, cols int, err error) {
	if len(in) < 3+k.data {
		return 0, 0, fmt.Errorf("am: affine cross-entropy of %d inputs", len(in))
	}
	n, p, err := k.aff.Shape(in[:len(in)-k.data])
	if err != nil {
		return 0, 0, err
	}
	for _, s := range in[len(in)-k.data : len(in)-k.data+2] {
		if s != [2]int{n, 1} {
			return 0, 0, fmt.Errorf("am: affine cross-entropy: targets and weights %v, want %d×1", in[len(in)-k.data:], n)
		}
	}
	if k.data == 3 && in[len(in)-1] != [2]int{n, p} {
		return 0, 0, fmt.Errorf("am: affine cross-entropy: teacher posteriors %v, want %d×%d", in[len(in)-1], n, p)
	}
	k.n, k.p = n, p
	k.dy = make([]float32, n*p)
	k.sum, k.best, k.terms = make([]float64, n), make([]int32, n), make([]float64, n)
	return 1, 1, nil
}

func (k *affineXent) Forward(out []float64, in [][]float64) {
	k.logits = k.aff.Forward(in[:len(in)-k.data])
	y, w := in[len(in)-k.data], in[len(in)-k.data+1]
	p := k.p
	// Targets are in [0, P) on every weighted row: Batch.Load checks them.
	xentOp{N: k.n, P: p}.rows(func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			l, e := k.logits[r*p:(r+1)*p], k.dy[r*p:(r+1)*p]
			best := 0
			for j, v := range l {
				if v > l[best] {
					best = j
				}
			}
			k.best[r] = int32(best)
			if w[r] == 0 {
				continue
			}
			m := l[best] // a NaN logit is not the max, but makes the sum and so the loss NaN all the same
			for j, v := range l {
				e[j] = v - m
			}
			sru.ExpInPlace(e)
			sum := 0.0
			for _, v := range e {
				sum += float64(v)
			}
			k.sum[r] = sum
			lse := float64(m) + math.Log(sum)
			t := float64(l[int(y[r])]) - lse
			if k.smooth != 0 {
				all := 0.0
				for _, v := range l {
					all += float64(v) - lse
				}
				t = (1-k.smooth)*t + k.smooth/float64(p)*all
			}
			if k.distill != 0 {
				soft := 0.0
				for j, q := range in[len(in)-1][r*p : (r+1)*p] {
					soft += q * (float64(l[j]) - lse)
				}
				t = (1-k.distill)*t + k.distill*soft
			}
			k.terms[r] = w[r] * t
		}
	})
	loss := 0.0
	for r, t := range k.terms {
		if w[r] != 0 {
			loss -= t
		}
	}
	out[0] = loss
}

func (k *affineXent) Backward(din [][]float64, dout []float64, in [][]float64) {
	y, w := in[len(in)-k.data], in[len(in)-k.data+1]
	g, p := dout[0], k.p
	xentOp{N: k.n, P: p}.rows(func(r0, r1 int) {
		for r := r0; r < r1; r++ {
			d := k.dy[r*p : (r+1)*p]
			if w[r] == 0 {
				clear(d)
				continue
			}
			s := g * w[r]
			if k.distill != 0 {
				distillGrad(d, in[len(in)-1][r*p:(r+1)*p], k.sum[r], s, k.smooth, k.distill, int(y[r]))
				continue
			}
			u := s * k.smooth / float64(p) // the smoothed target's uniform part
			sum := k.sum[r]
			t := int(y[r])
			dt := s*float64(d[t])/sum - u - s*(1-k.smooth)
			for j, e := range d {
				d[j] = float32(s*float64(e)/sum - u)
			}
			d[t] = float32(dt)
		}
	})
	k.aff.Backward(din[:len(din)-k.data], k.dy)
}

// Logits32 are the latest Forward's logits (N×P), float32.
func (k *affineXent) Logits32() []float32 { return k.logits }
