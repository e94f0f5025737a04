package nn

import (
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/optim"
)

// TestBinding: a parameter gets one node per graph however often it is
// used, Bound lists parameters in order of first use, and two graphs bound
// to the same parameters see the same values.
func TestBinding(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var ps Params
	a := ps.New("a", 2, 2, optim.Free, rng)
	b := ps.Zero("b", 1, 2)
	n := NewNet()
	if n.P(b) != n.P(b) {
		t.Fatal("two nodes for one parameter")
	}
	n.P(a)
	got, nodes := n.Bound()
	if len(got) != 2 || got[0] != b || got[1] != a || len(nodes) != 2 || nodes[0] != n.P(b) {
		t.Fatalf("Bound = %v, want [b a] in order of first use", got)
	}
	if len(ps.List) != 2 || ps.List[0] != a || ps.List[1] != b {
		t.Fatalf("Params.List = %v, want [a b] in order of creation", ps.List)
	}
	for _, v := range b.Data {
		if v != 0 {
			t.Fatalf("Zero parameter holds %v", b.Data)
		}
	}
	if Scalar(nil) != 0 {
		t.Error("Scalar(nil) != 0")
	}
}

// TestLinearAndMLP checks Linear.Apply against x·W + b computed by hand and
// that MLP.Apply clips at zero (ReLU) with the sizes asked for.
func TestLinearAndMLP(t *testing.T) {
	rng := rand.New(rand.NewSource(5))
	var ps Params
	l := NewLinear(&ps, "l", 3, 2, rng)
	copy(l.B.Data, []float64{0.5, -0.25})
	mlp := NewMLP(&ps, "m", 3, 4, 2, rng)
	if len(mlp.Layers) != 2 || mlp.Layers[1].W.Rows != 4 || mlp.Layers[1].W.Cols != 4 || mlp.Layers[0].W.Name != "m.0.weight" {
		t.Fatalf("MLP layers %+v", mlp.Layers)
	}
	x := []float64{1, -2, 0.5, 0.25, 3, -1}
	n := NewNet()
	xn := n.Const("x", x, 2, 3)
	y, h := l.Apply(n, xn), mlp.Apply(n, xn)
	m, err := n.Compile(n.Add(n.Sum(y), n.Sum(h)), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Run(); err != nil {
		t.Fatal(err)
	}
	got := autodiff.Value(y)
	for r := 0; r < 2; r++ {
		for c := 0; c < 2; c++ {
			want := l.B.Data[c]
			for k := 0; k < 3; k++ {
				want += x[r*3+k] * l.W.Data[k*2+c]
			}
			if math.Abs(got[r*2+c]-want) > 1e-12 {
				t.Errorf("y[%d,%d] = %v, want %v", r, c, got[r*2+c], want)
			}
		}
	}
	if s := h.Shape(); s[0] != 2 || s[1] != 4 {
		t.Fatalf("MLP output shape %v, want 2×4", s)
	}
	for _, v := range autodiff.Value(h) {
		if v < 0 {
			t.Fatalf("MLP output %v below zero after ReLU", v)
		}
	}
}
