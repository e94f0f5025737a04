package am

import (
	"math/rand"
	"testing"

	"gorgonia.org/gorgonia"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
)

// TestAffineXentMatchesNodes: the fused output layer and cross-entropy
// gives bit for bit the loss and gradients of the float32 affine node
// followed by xentOp (what training computed before the fusion), with and
// without label smoothing, with distillation's soft targets (teacher
// posteriors q, λ = 0.4, alone and with smoothing) and with padded
// (weight 0) rows; its arg-max and logits are the affine node's.
func TestAffineXentMatchesNodes(t *testing.T) {
	defer func(v bool) { sru.Float32Products = v }(sru.Float32Products)
	sru.Float32Products = true
	const N, In, In2, P = 11, 7, 3, 37
	rng := rand.New(rand.NewSource(5))
	var ps nn.Params
	w := ps.New("w", In, P, optim.Free, rng)
	w2 := ps.New("w2", In2, P, optim.Free, rng)
	b := ps.New("b", 1, P, optim.Free, rng)
	input := func(name string, cols int, scale float64) *optim.Param {
		x := optim.NewParam(name, N, cols, optim.Free)
		for j := range x.Data {
			x.Data[j] = scale * rng.NormFloat64()
		}
		return x
	}
	x, x2 := input("x", In, 3), input("x2", In2, 1)
	y, wt := make([]float64, N), make([]float64, N)
	for r := range y {
		y[r] = float64(rng.Intn(P))
		if r%4 != 3 {
			wt[r] = 0.1 + rng.Float64()
		}
	}
	// Posteriors in float32 (as a teacher's are held), rows summing to 1
	// up to their rounding.
	q := make([]float64, N*P)
	for r := range N {
		row, sum := make([]float32, P), float32(0)
		for j := range row {
			row[j] = float32(rng.ExpFloat64())
			sum += row[j]
		}
		for j, v := range row {
			q[r*P+j] = float64(v / sum)
		}
	}
	for _, c := range [][2]float64{{0, 0}, {0.1, 0}, {0, 0.4}, {0.1, 0.4}} {
		smooth, distill := c[0], c[1]
		var res [2]map[string][]float64
		var logits [2][]float64
		var best []int32
		for i := range 2 {
			n := nn.NewNet()
			ty, tw := n.Const("y", y, N, 1), n.Const("w", wt, N, 1)
			data := []*autodiff.Node{ty, tw}
			if distill != 0 {
				data = append(data, n.Const("q", q, N, P))
			}
			var ce, l *autodiff.Node
			var k *affineXent
			if i == 0 {
				var err error
				l, err = sru.AffineSum(n, []*autodiff.Node{n.P(x), n.P(x2)}, []*optim.Param{w, w2}, b)
				if err != nil {
					t.Fatal(err)
				}
				if ce, err = gorgonia.ApplyOp(xentOp{N: N, P: P, Smooth: smooth, Distill: distill}, append([]*autodiff.Node{l}, data...)...); err != nil {
					t.Fatal(err)
				}
			} else {
				k = newAffineXent(smooth, distill)
				ce = n.Fused("output+xent", k, append([]*autodiff.Node{n.P(x), n.P(w), n.P(x2), n.P(w2), n.P(b)}, data...)...)
			}
			loss := n.Scale(n.Sum(ce), 0.7) // a gradient ≠ 1 reaches the loss node
			params, nodes := n.Bound()
			m, err := n.Compile(loss, nodes)
			if err != nil {
				t.Fatal(err)
			}
			if err := m.Run(); err != nil {
				t.Fatal(err)
			}
			if k != nil {
				logits[i], best = rowsOf(&Batch{T: N, B: 1, lengths: []int{N}}, k.Logits32(), 0, nil), k.best
			}
			res[i] = map[string][]float64{"loss": autodiff.Value(loss)}
			for j, p := range params {
				res[i][p.Name] = append([]float64(nil), m.Grad(j)...)
			}
			if l != nil { // read before Close; the reverse pass does not write the logits
				logits[i] = append([]float64(nil), autodiff.Value(l)...)
			}
			m.Close()
		}
		if len(res[0]) != len(res[1]) || len(res[0]) != 6 {
			t.Fatalf("smooth %g distill %g: %d values against %d", smooth, distill, len(res[1]), len(res[0]))
		}
		for name, want := range res[0] {
			for j, v := range res[1][name] {
				if v != want[j] {
					t.Fatalf("smooth %g distill %g: %s[%d]: nodes %.17g, fused %.17g", smooth, distill, name, j, want[j], v)
				}
			}
		}
		for r := range N {
			row := logits[1][r*P : (r+1)*P]
			for j, v := range row {
				if v != logits[0][r*P+j] {
					t.Fatalf("smooth %g distill %g: logit %d,%d: nodes %g, fused %g", smooth, distill, r, j, logits[0][r*P+j], v)
				}
				if v > row[best[r]] || (v == row[best[r]] && j < int(best[r])) {
					t.Fatalf("smooth %g distill %g: row %d: arg-max %d, but logit %d is %g", smooth, distill, r, best[r], j, v)
				}
			}
		}
	}
}
