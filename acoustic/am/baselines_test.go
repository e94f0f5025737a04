package am

import (
	"errors"
	"math"
	"math/rand"
	"testing"

	"github.com/strode-asr/strode/acoustic/sru"
)

// TestFloat32MatchesFloat64: the training graphs of odernn and strode with
// the float32 products (odernn: the fused ODE-RNN cell with internal/gemm,
// fused SRU stacks with the decoder's input gradient, float32 affines;
// strode: the head's float32 layers and its fused float32 Euler solve) give
// the float64 graph's loss and parameter gradients (the ones TestGradients
// checks against finite differences), relative to the largest entry of
// each: 2e-4 for the loss, 2e-3 for the gradients (float32 sums over
// frames, steps and utterances). strode's head variants too: htilde (the
// fused output and cross-entropy on h̃ alone) and gated (the float32
// sigmoid gate on h̃ and the Hadamard product with e) and lookahead (the
// float64 read-ahead between the SRU's float32 output and the fused output
// layer, and the latency term).
func TestFloat32MatchesFloat64(t *testing.T) {
	defer func(v bool) { sru.Float32Products = v }(sru.Float32Products)
	for _, tc := range []struct{ name, kind, variant string }{
		{"odernn", KindODERNN, ""},
		{"strode", KindSTRODE, HeadPaper},
		{"strode-htilde", KindSTRODE, HeadHTilde},
		{"strode-gated", KindSTRODE, HeadGated},
		{"strode-lookahead", KindSTRODE, HeadLookahead},
	} {
		t.Run(tc.name, func(t *testing.T) { checkFloat32MatchesFloat64(t, tc.kind, tc.variant) })
	}
}

func checkFloat32MatchesFloat64(t *testing.T, kind, variant string) {
	o := tinyOptions(kind)
	o.HeadVariant = variant
	o.SRU.Hidden, o.ODEState, o.ODEHidden, o.ODE.Steps, o.InputDim = 6, 5, 7, 4, 4
	o.SRU.Dropout = 0.2
	if kind == KindSTRODE {
		// the free b(z) runs through the head's float32 layers too; the
		// terms' weights large enough that their gradients count
		o.PhiZ, o.WKL, o.WP = PhiZFree, 0.5, 0.5
		o.MaxLookahead, o.WLatency = 3, 0.5
	}
	m, err := New(o, 9)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewSource(2))
	for _, p := range m.Params.List {
		if p.Rows == 1 {
			for j := range p.Data {
				p.Data[j] += 0.3 * rng.NormFloat64()
			}
		}
	}
	utts := tinyBatch(rng, o, []int{9, 4, 7})
	var loss [2]float64
	var grads [2][][]float64
	for i, f32 := range []bool{false, true} {
		sru.Float32Products = f32
		bt, err := m.Build(9, 3, Train)
		if err != nil {
			t.Fatal(err)
		}
		if err := bt.Load(utts, rand.New(rand.NewSource(4))); err != nil {
			t.Fatal(err)
		}
		if err := bt.Run(); err != nil {
			t.Fatal(err)
		}
		loss[i] = Scalar(bt.Loss)
		if len(bt.Output(0, nil)) == 0 {
			t.Fatal("no logits")
		}
		for _, p := range m.Params.List {
			grads[i] = append(grads[i], append([]float64(nil), p.Grad...))
		}
		bt.Close()
	}
	if d := math.Abs(loss[0] - loss[1]); d > 2e-4*math.Abs(loss[0]) {
		t.Errorf("loss: float64 %.8g, float32 %.8g", loss[0], loss[1])
	}
	for j, p := range m.Params.List {
		scale := 0.0
		for _, v := range grads[0][j] {
			scale = math.Max(scale, math.Abs(v))
		}
		if scale == 0 {
			t.Errorf("%s: zero gradient", p.Name)
			continue
		}
		for k := range grads[0][j] {
			if d := math.Abs(grads[0][j][k] - grads[1][j][k]); d > 2e-3*scale {
				t.Errorf("%s[%d]: float64 %g, float32 %g (scale %g)", p.Name, k, grads[0][j][k], grads[1][j][k], scale)
				break
			}
		}
	}
}

// TestInitEncoderRefusesBaselines: --init-encoder neither starts nor takes
// an odernn or dnn model (their output layer does not read the encoder).
func TestInitEncoderRefusesBaselines(t *testing.T) {
	src, err := New(tinyOptions(KindSRU), 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{KindODERNN, KindDNN} {
		m, err := New(tinyOptions(kind), 1)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.InitEncoder(src); !errors.Is(err, ErrEncoderMismatch) {
			t.Errorf("%s from sru: %v, want ErrEncoderMismatch", kind, err)
		}
		if err := src.InitEncoder(m); !errors.Is(err, ErrEncoderMismatch) {
			t.Errorf("sru from %s: %v, want ErrEncoderMismatch", kind, err)
		}
	}
}
