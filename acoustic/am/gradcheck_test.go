package am

import (
	"math/rand"
	"strings"
	"testing"

	"github.com/strode-asr/strode/acoustic/autodiff/gradcheck"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
)

func tinyOptions(kind string) Options {
	o, _ := PresetFor("small", kind)
	o.SRU = sru.Options{Hidden: 4, Layers: 2, Activation: sru.Identity}
	o.ODEState, o.ODEHidden, o.PhiHidden, o.PriorHidden = 3, 4, 4, 4
	o.InputDim, o.NumPdfs = 3, 5
	switch kind {
	case KindODERNN:
		o.SRU.Layers, o.DecoderLayers, o.ODE.Steps = 1, 2, 3
	case KindDNN:
		o.DNNLayers, o.DNNHidden = 2, 4
	}
	return o
}

func tinyBatch(rng *rand.Rand, o Options, lengths []int) []*Utterance {
	var us []*Utterance
	for i, l := range lengths {
		u := &Utterance{Key: string(rune('a' + i)), Rows: l, Feats: make([]float32, l*o.InputDim), Targets: make([]int32, l)}
		for j := range u.Feats {
			u.Feats[j] = float32(rng.NormFloat64())
		}
		for j := range u.Targets {
			u.Targets[j] = int32(rng.Intn(o.NumPdfs))
		}
		us = append(us, u)
	}
	return us
}

// TestGradients compares every parameter gradient of the training loss
// with central finite differences in float64 (relative error ≤ 1e-3): the
// sru model, the STRODE head through the cross-entropy alone, and the whole
// loss with the KL and Gaussian prior terms weighted up so they matter,
// also with label smoothing, and with a fixed t̃; the baselines: odernn (its fused ODE-RNN cell
// through the SRU decoder into the encoder) and dnn (sigmoid and ReLU).
func TestGradients(t *testing.T) {
	defer func(v bool) { sru.Float32Products = v }(sru.Float32Products)
	sru.Float32Products = false
	for _, tc := range []struct {
		name    string
		kind    string
		wkl, wp float64
		phiZ    string
		bidir   bool
		smooth  float64
	}{
		{"sru", KindSRU, 0, 0, PhiZNonPos, false, 0},
		{"strode-head", KindSTRODE, 0, 0, PhiZNonPos, false, 0},
		{"strode-whole-loss", KindSTRODE, 0.3, 0.5, PhiZNonPos, false, 0},
		{"strode-free-phi-z", KindSTRODE, 0.3, 0.5, PhiZFree, false, 0},
		// Bidirectional encoder (masked: lengths 4, 2, 3 in a batch of 4).
		{"sru-bidirectional", KindSRU, 0, 0, PhiZNonPos, true, 0},
		{"strode-bidirectional", KindSTRODE, 0.3, 0.5, PhiZFree, true, 0},
		// Label smoothing (--label-smoothing).
		{"sru-label-smoothing", KindSRU, 0, 0, PhiZNonPos, false, 0.3},
		{"strode-label-smoothing", KindSTRODE, 0.3, 0.5, PhiZFree, false, 0.3},
		// The constant-t̃ ablation (--fixed-t-tilde=1.5): no KL term, Φ
		// and φ unused, the Gaussian prior term weighted up.
		{"strode-fixed-t-tilde", KindSTRODE, 0.3, 0.5, PhiZFree, false, 0},
		{"odernn", KindODERNN, 0, 0, "", false, 0},
		{"odernn-bidirectional", KindODERNN, 0, 0, "", true, 0.3},
		{"dnn-sigmoid", KindDNN, 0, 0, "", false, 0},
		{"dnn-relu", KindDNN, 0, 0, "", false, 0.3},
		// The head variants (variants below): h̃ alone, e gated by h̃.
		{"strode-htilde", KindSTRODE, 0.3, 0.5, PhiZFree, false, 0},
		{"strode-gated", KindSTRODE, 0.3, 0.5, PhiZFree, false, 0},
		{"strode-htilde-fixed-t-tilde", KindSTRODE, 0.3, 0.5, PhiZFree, false, 0},
		// The look-ahead head: e read at i + min(t̃, L) by interpolation,
		// the latency term weighted up; L = 2 reads past the ends of the
		// utterances of 2 and 3 frames, L = 1 clamps the t̃ above 1.
		{"strode-lookahead", KindSTRODE, 0.3, 0.5, PhiZFree, false, 0},
		{"strode-lookahead-max1", KindSTRODE, 0.3, 0.5, PhiZFree, false, 0.3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := tinyOptions(tc.kind)
			o.WKL, o.WP, o.PhiZ = tc.wkl, tc.wp, tc.phiZ
			o.SRU.Bidirectional = tc.bidir
			if tc.name == "dnn-relu" {
				o.DNNActivation = DNNReLU
			}
			variants := map[string]string{"strode-htilde": HeadHTilde, "strode-gated": HeadGated,
				"strode-htilde-fixed-t-tilde": HeadHTilde, "strode-lookahead": HeadLookahead, "strode-lookahead-max1": HeadLookahead}
			if v, ok := variants[tc.name]; ok {
				o.HeadVariant = v
			}
			if o.HeadVariant == HeadLookahead {
				o.MaxLookahead, o.WLatency = 2, 0.3
				if strings.HasSuffix(tc.name, "max1") {
					o.MaxLookahead = 1
				}
			}
			if strings.HasSuffix(tc.name, "fixed-t-tilde") {
				c := 1.5
				o.FixedTTilde = &c
			}
			m, err := New(o, 3)
			if err != nil {
				t.Fatal(err)
			}
			// Move the biases off zero so every path is exercised.
			rng := rand.New(rand.NewSource(4))
			for _, p := range m.Params.List {
				if p.Sign == 0 && p.Rows == 1 {
					for j := range p.Data {
						p.Data[j] += 0.2 * rng.NormFloat64()
					}
				}
			}
			bt, err := m.BuildSmoothed(4, 3, Train, tc.smooth)
			if err != nil {
				t.Fatal(err)
			}
			defer bt.Close()
			if err := bt.Load(tinyBatch(rng, o, []int{4, 2, 3}), rng); err != nil {
				t.Fatal(err)
			}
			if err := bt.Run(); err != nil {
				t.Fatal(err)
			}
			params := bt.Params()
			if want := len(m.Params.List) - len(unusedParams(m)); len(params) != want {
				t.Fatalf("%d parameters reached by the gradient, want %d of the model's %d", len(params), want, len(m.Params.List))
			}
			compareBatchGradients(t, tc.name, bt, params)
			t.Logf("loss %.6f CE %.6f KL %.6f logP %.6f", Scalar(bt.Loss), Scalar(bt.CE), Scalar(bt.KL), Scalar(bt.LogP))
		})
	}
}

// unusedParams are the tensors a fixed t̃ leaves out of the graph, and so
// untrained: Φ's (phi.*) and φ's (prior.*), and with C = 0 f_o's (ode.0–2;
// ode.proj, P, stays). Empty without a fixed t̃.
func unusedParams(m *Model) map[string]bool {
	c, ok := m.Opts.FixedBoundary()
	if !ok {
		return nil
	}
	prefixes := []string{"phi.", "prior."}
	if c == 0 {
		prefixes = append(prefixes, "ode.0.", "ode.1.", "ode.2.")
	}
	out := map[string]bool{}
	for _, p := range m.Params.List {
		for _, pre := range prefixes {
			if strings.HasPrefix(p.Name, pre) {
				out[p.Name] = true
			}
		}
	}
	return out
}

// compareBatchGradients checks the gradients bt's last Run left in params
// against central differences of its loss (every 12th element, step 1e-6).
func compareBatchGradients(t *testing.T, name string, bt *Batch, params []*optim.Param) {
	t.Helper()
	grads := make([][]float64, len(params))
	for i, p := range params {
		grads[i] = append([]float64(nil), p.Grad...)
	}
	loss := func() float64 {
		if err := bt.Run(); err != nil {
			t.Fatal(err)
		}
		return Scalar(bt.Loss)
	}
	gradcheck.Compare(t, name, params, grads, loss, gradcheck.Options{Step: 1e-6, Floor: 1e-5, Every: 12})
}

// moveBiasesOffZero adds N(0, 0.2²) noise to every unconstrained bias (a
// one-row parameter of free sign), so that a gradient check exercises every
// path rather than the symmetric start.
func moveBiasesOffZero(m *Model, rng *rand.Rand) {
	for _, p := range m.Params.List {
		if p.Sign == 0 && p.Rows == 1 {
			for j := range p.Data {
				p.Data[j] += 0.2 * rng.NormFloat64()
			}
		}
	}
}
