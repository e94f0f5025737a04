package strodehead

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
)

// Head variants: what the classifier (the acoustic model's output layer)
// reads of the encoder output e_i and of the head's ODE solution h̃_i
// (DESIGN.md §3). W is the model's output layer "out", W_h = OutH.
//
// In the paper's form the classifier reads e_i beside h̃_i, so it need not
// use what the KL and Gaussian prior terms shape: measured, causal strode
// and sru differ by +0.06 [−2.73, +2.86] WER on speechocean762
// (recipes/speechocean762/RESULTS.md). The other two variants put h̃ in the
// classifier's path.
const (
	// VariantPaper: logits = W·e + W_h·h̃ + b (the paper; "" in older model
	// files).
	VariantPaper = "paper"
	// VariantHTilde: logits = W·h̃ + b, W of S×P (no out.ode.weight): h̃
	// alone must carry what the decision needs; e reaches the classifier
	// only through h(0) = P·e and the ODE.
	VariantHTilde = "htilde"
	// VariantGated: logits = W·(e ⊙ σ(G·h̃ + g)) + W_h·h̃ + b, G of S×H and
	// g of H ("out.gate.*"): h̃ decides, per encoder unit, how much of e
	// the classifier sees.
	VariantGated = "gated"
	// VariantLookahead: logits = W·ê + W_h·h̃ + b with ê = e(i + min(t̃, L))
	// read from a causal encoder ahead of the frame (lookahead.go): t̃ is
	// the frame's latency, priced in the loss by w_latency.
	VariantLookahead = "lookahead"
)

// Variants lists the head variants (--head-variant's values).
var Variants = []string{VariantPaper, VariantHTilde, VariantGated, VariantLookahead}

// VariantUsage is --head-variant's help.
const VariantUsage = "strode: what the output layer reads: paper (W e + W_h h~ + b, the paper's), " +
	"htilde (W h~ + b: h~ alone), gated (W (e * sigmoid(G h~ + g)) + W_h h~ + b: h~ gates e) or lookahead " +
	"(W e(i + min(t~, L)) + W_h h~ + b: a causal encoder read t~ frames ahead, --max-lookahead L, --w-latency). Stored in the model"

// variant is c's variant, "" read as the paper's.
func (c Config) variant() string {
	if c.Variant == "" {
		return VariantPaper
	}
	return c.Variant
}

// HTildeOnly tells whether the output layer reads h̃ alone (VariantHTilde):
// its W is then S×P, and the model has no out.ode.weight.
func (c Config) HTildeOnly() bool { return c.Variant == VariantHTilde }

// validVariant checks c.Variant.
func (c Config) validVariant() error {
	for _, v := range Variants {
		if c.variant() == v {
			return nil
		}
	}
	return fmt.Errorf("am: unknown --head-variant=%q (want paper, htilde, gated or lookahead)", c.Variant)
}

// OutIn is the width of what the output layer's W reads: the encoder's H,
// or the ODE state S for VariantHTilde.
func (c Config) OutIn() int {
	if c.HTildeOnly() {
		return c.State
	}
	return c.In
}

// OutputTerms are the inputs of the acoustic model's output layer and
// their weights — logits = Σ_k xs[k]·ws[k] + b, with b the model's bias —
// for the encoder outputs e (rows×H), the head's h̃ (rows×S) and the
// model's output weight w (OutIn()×P):
//
//	paper:  [e, h̃]               [W, W_h]
//	htilde: [h̃]                  [W]
//	gated:  [e ⊙ σ(h̃·G + g), h̃]  [W, W_h]
//	lookahead: as paper, with e the read-ahead ê (ReadAhead) in e's place
//
// The gate is one fused float32 node (sru.AffineAct with its sigmoid; with
// sru.Float32Products off, float64 graph operations, which the gradient
// checks see) and the product with e a fused float64 node (hadamard).
func (hd *Head) OutputTerms(net *nn.Net, e, htilde *autodiff.Node, w *optim.Param) ([]*autodiff.Node, []*optim.Param) {
	switch hd.Cfg.variant() {
	case VariantHTilde:
		return []*autodiff.Node{htilde}, []*optim.Param{w}
	case VariantGated:
		g, err := sru.AffineAct(net, htilde, hd.Gate.W, hd.Gate.B, sru.ActSigmoid)
		if err != nil {
			g = net.Fail(hd.Gate.W.Name, err)
		}
		return []*autodiff.Node{net.Fused("gate*e", hadamard{}, e, g), htilde}, []*optim.Param{w, hd.OutH}
	}
	return []*autodiff.Node{e, htilde}, []*optim.Param{w, hd.OutH}
}

// hadamard is a ⊙ b for two matrices of one shape, as a fused node: the
// graph's element-wise product (gorgonia's HadamardProd) may be computed in
// place, into e's buffer, when the tape machine sees e's last use there —
// and the encoder output e is read after the run (Batch.Enc: postdiction,
// t̃ statistics). A fused node never writes its inputs.
type hadamard struct{}

func (hadamard) Shape(in [][2]int) (int, int, error) {
	if len(in) != 2 || in[0] != in[1] {
		return 0, 0, fmt.Errorf("strodehead: gate product of shapes %v, want two of one shape", in)
	}
	return in[0][0], in[0][1], nil
}

func (hadamard) Forward(out []float64, in [][]float64) {
	for i, a := range in[0] {
		out[i] = a * in[1][i]
	}
}

func (hadamard) Backward(din [][]float64, dout []float64, in [][]float64) {
	for i, d := range dout {
		din[0][i] = d * in[1][i]
		din[1][i] = d * in[0][i]
	}
}

// outputFunc returns the output layer's logits as a function of h for one
// frame whose encoder output is e, in plain float64 (Postdiction, Effect):
// the variant's equation (OutputTerms) with out = the model's W and b.
func (hd *Head) outputFunc(e []float64, out *nn.Linear) func(h []float64) []float64 {
	c := hd.Cfg
	p := c.NumPdfs
	switch c.variant() {
	case VariantHTilde:
		return func(h []float64) []float64 {
			l := matVec(h, out.W.Data, p)
			for j := range l {
				l[j] += out.B.Data[j]
			}
			return l
		}
	case VariantGated:
		return func(h []float64) []float64 {
			g := matVec(h, hd.Gate.W.Data, c.In)
			for j := range g {
				g[j] = e[j] / (1 + math.Exp(-(g[j] + hd.Gate.B.Data[j])))
			}
			l := matVec(g, out.W.Data, p)
			lh := matVec(h, hd.OutH.Data, p)
			for j := range l {
				l[j] += lh[j] + out.B.Data[j]
			}
			return l
		}
	}
	// The paper's: W·e + b once, W_h·h added (the order Postdiction
	// always summed in).
	base := matVec(e, out.W.Data, p)
	for j := range base {
		base[j] += out.B.Data[j]
	}
	return func(h []float64) []float64 {
		l := matVec(h, hd.OutH.Data, p)
		for j := range l {
			l[j] += base[j]
		}
		return l
	}
}

// describeOutput is model-info's line for the output layer's variant.
func describeOutput(c Config) string {
	switch c.variant() {
	case VariantHTilde:
		return "output\thead variant htilde: logits = W h~ + b (h~ alone)"
	case VariantGated:
		return "output\thead variant gated: logits = W (e * sigmoid(G h~ + g)) + W_h h~ + b"
	case VariantLookahead:
		return fmt.Sprintf("output\thead variant lookahead: logits = W e(i + min(t~, %d)) + W_h h~ + b; latency cost %g mean t~",
			c.MaxLookahead, c.WLatency)
	}
	return "output\thead variant paper: logits = W e + W_h h~ + b"
}
