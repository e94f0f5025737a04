package conv

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
)

// torchCase is one case of testdata/torch_golden.json (torch_golden.py):
// PyTorch's float64 output and gradients of Σ out ⊙ r.
type torchCase struct {
	Op          string
	N           int
	Options     Options
	Channels    int
	Positions   int
	Inputs      [][]float64
	Output      []float64
	R           []float64
	Grads       [][]float64
	RunningMean []float64 `json:"running_mean"`
	RunningVar  []float64 `json:"running_var"`
	EvalInput   []float64 `json:"eval_input"`
	EvalOutput  []float64 `json:"eval_output"`
}

// runCost builds out = build(inputs) and Σ out ⊙ r, runs it once and
// returns the output and the gradients.
func runCost(t *testing.T, vals [][]float64, shapes [][2]int, r []float64, build func(g *autodiff.Graph, in []*autodiff.Node) *autodiff.Node) ([]float64, [][]float64) {
	t.Helper()
	g := autodiff.New()
	in := make([]*autodiff.Node, len(vals))
	for i, v := range vals {
		in[i] = g.Param("in", append([]float64(nil), v...), shapes[i][0], shapes[i][1])
	}
	out := build(g, in)
	if g.Err() != nil {
		t.Fatal(g.Err())
	}
	s := out.Shape()
	cost := g.Sum(g.Mul(out, g.Const("r", r, s[0], s[1])))
	m, err := g.Compile(cost, in)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Run(); err != nil {
		t.Fatal(err)
	}
	grads := make([][]float64, len(vals))
	for i := range vals {
		grads[i] = append([]float64(nil), m.Grad(i)...)
	}
	return append([]float64(nil), autodiff.Value(out)...), grads
}

func TestTorchGolden(t *testing.T) {
	data, err := os.ReadFile("testdata/torch_golden.json")
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Torch string
		Cases []torchCase
	}
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatalf("testdata/torch_golden.json: %v", err)
	}
	for ci, c := range golden.Cases {
		switch c.Op {
		case "conv2d", "conv_transpose2d":
			transposed := c.Op == "conv_transpose2d"
			o := c.Options
			cc := convCase{n: c.N, o: o, bias: len(c.Inputs) > 2}
			wr, wc := o.WeightShape()
			if transposed {
				wr, wc = o.TransposedWeightShape()
			}
			shapes := [][2]int{{c.N, o.InChannels * o.Height * o.Width}, {wr, wc}, {1, o.OutChannels}}
			for _, f64 := range []bool{true, false} {
				cc.o.Float64 = f64
				tol := tolFloat32
				if f64 {
					tol = tolFloat64
				}
				out, grads := runCost(t, c.Inputs, shapes, c.R, cc.build(transposed))
				if d := maxRelDiff(out, c.Output); d > tol {
					t.Errorf("case %d %s float64=%v: output differs from PyTorch %s by %.3g", ci, cc, f64, golden.Torch, d)
				}
				for i := range grads {
					if d := maxRelDiff(grads[i], c.Grads[i]); d > tol {
						t.Errorf("case %d %s float64=%v: gradient %d differs from PyTorch by %.3g", ci, cc, f64, i, d)
					}
				}
			}
		case "batchnorm2d":
			bn := NewBatchNorm(c.Channels)
			shapes := [][2]int{{c.N, c.Channels * c.Positions}, {1, c.Channels}, {1, c.Channels}}
			out, grads := runCost(t, c.Inputs, shapes, c.R, bnBuild(bn))
			if d := maxRelDiff(out, c.Output); d > tolFloat64 {
				t.Errorf("case %d batchnorm2d: training output differs from PyTorch by %.3g", ci, d)
			}
			for i := range grads {
				if d := maxRelDiff(grads[i], c.Grads[i]); d > tolFloat64 {
					t.Errorf("case %d batchnorm2d: gradient %d differs from PyTorch by %.3g", ci, i, d)
				}
			}
			if maxRelDiff(bn.RunningMean, c.RunningMean) > tolFloat64 || maxRelDiff(bn.RunningVar, c.RunningVar) > tolFloat64 {
				t.Errorf("case %d batchnorm2d: running statistics %v %v, PyTorch %v %v", ci, bn.RunningMean, bn.RunningVar, c.RunningMean, c.RunningVar)
			}
			bn.Training = false
			ev := forward(t, [][]float64{c.EvalInput, c.Inputs[1], c.Inputs[2]}, shapes, bnBuild(bn))
			if d := maxRelDiff(ev, c.EvalOutput); d > tolFloat64 {
				t.Errorf("case %d batchnorm2d: evaluation output differs from PyTorch by %.3g", ci, d)
			}
		default:
			t.Errorf("case %d: unknown op %q", ci, c.Op)
		}
	}
}
