package am

import (
	"fmt"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/sru"
)

// The odernn model is the STRODE paper's ODE-RNN baseline (after Rubanova
// et al. 2019) for frame classification; BASELINES.md gives every choice
// the paper leaves open and why:
//
//	e = SRU_enc(x)                              (SRU.Layers × SRU.Hidden)
//	[C_i | F_i] = e_i·A + a                     (one product for all frames)
//	p_0 = 0,  p_i = z_{i−1} evolved by dz/dτ = f_o(z) over τ ∈ [0, 1]
//	                                            (ODE.Steps Euler steps)
//	g_i = σ(F_i + v⊙p_i),  z_i = g_i⊙p_i + (1−g_i)⊙C_i     (state ODEState)
//	d = SRU_dec([e_i ; z_i])                    (DecoderLayers × SRU.Hidden)
//	logits_i = W·d_i + b
//
// The ODE is part of the recurrence, as in Rubanova's ODE-RNN (the state
// evolves between observations, then an RNN cell takes the observation);
// the cell is SRU-like (one gate, an elementwise light recurrence) and runs
// with its ODE solves as one fused operation over the whole block
// (odernn_cell.go).

// newODERNN adds the encoder "sru.L.*", the ODE-RNN layer "odernn.in.*"
// (A, a), "odernn.weight_c" (v) and "ode.0-2.*" (f_o), the decoder
// "dec.L.*" and the output "out.*".
func (m *Model) newODERNN(rng *rand.Rand) error {
	o := m.Opts
	var err error
	if m.Enc, err = sru.NewEncoder(&m.Params, "sru", o.InputDim, o.SRU, rng); err != nil {
		return err
	}
	h, s := o.SRU.OutDim(), o.ODEState
	m.RNNIn = nn.NewLinear(&m.Params, "odernn.in", h, 2*s, rng)
	// v starts at 0, not at the SRU's U(±√3)·√0.5: v multiplies a state
	// that f_o moves by itself, and where v⊙p outweighs F the gate sits at
	// 1 for the units whose v and p agree in sign, so those integrate f_o's
	// drift frame after frame (BASELINES.md: an initial held-out CE of 15.5
	// on kaldi-mini against log 62 = 4.1).
	m.RNNGate = m.Params.Zero("odernn.weight_c", 1, s)
	m.ODE[0] = nn.NewLinear(&m.Params, "ode.0", s, o.ODEHidden, rng)
	m.ODE[1] = nn.NewLinear(&m.Params, "ode.1", o.ODEHidden, o.ODEHidden, rng)
	m.ODE[2] = nn.NewLinear(&m.Params, "ode.2", o.ODEHidden, s, rng)
	dec := o.SRU
	dec.Layers = o.DecoderLayers
	if m.Dec, err = sru.NewEncoder(&m.Params, "dec", h+s, dec, rng); err != nil {
		return err
	}
	m.Dec.InputGrad = true
	m.Out = nn.NewLinear(&m.Params, "out", dec.OutDim(), o.NumPdfs, rng)
	return nil
}

// odernnFeatures builds encoder, ODE-RNN layer and decoder on x: the
// decoder's output (N × SRU.OutDim()) under the output layer, and the
// dropout masks of both SRU stacks.
func (m *Model) odernnFeatures(net *nn.Net, x, mask *autodiff.Node, t, b int, train bool) (*autodiff.Node, []*sru.Dropout, error) {
	o := m.Opts
	e, dropEnc, err := m.Enc.Apply(net, x, mask, t, b, train)
	if err != nil {
		return nil, nil, err
	}
	u, err := sru.Affine(net, e, m.RNNIn.W, m.RNNIn.B)
	if err != nil {
		return nil, nil, err
	}
	var k autodiff.Kernel = newODERNNCell[float64](t, b, o.ODEState, o.ODEHidden, o.ODE.Steps, mm64)
	if sru.Float32Products {
		k = newODERNNCell[float32](t, b, o.ODEState, o.ODEHidden, o.ODE.Steps, mm32)
	}
	z := net.Fused("odernn", k, u, net.P(m.RNNGate), mask,
		net.P(m.ODE[0].W), net.P(m.ODE[0].B), net.P(m.ODE[1].W), net.P(m.ODE[1].B), net.P(m.ODE[2].W), net.P(m.ODE[2].B))
	d, dropDec, err := m.Dec.Apply(net, net.Fused("concat", &concatCols{}, e, z), mask, t, b, train)
	if err != nil {
		return nil, nil, err
	}
	return d, []*sru.Dropout{dropEnc, dropDec}, nil
}

func (o Options) validateODERNN() error {
	if o.DecoderLayers < 1 || o.ODEState < 1 || o.ODEHidden < 1 {
		return fmt.Errorf("am: odernn sizes must be ≥ 1: decoder-layers %d ode-state %d ode-hidden %d", o.DecoderLayers, o.ODEState, o.ODEHidden)
	}
	if err := o.ODE.Validate(); err != nil {
		return err
	}
	if o.ODE.Method != ode.Euler {
		return fmt.Errorf("am: odernn solves its ODE with fixed Euler steps only (--ode-solver=%s)", o.ODE.Method)
	}
	return nil
}

// concatCols is [a | b] for matrices with equal row counts.
type concatCols struct{ rows, ca, cb int }

func (c *concatCols) Shape(in [][2]int) (int, int, error) {
	if len(in) != 2 || in[0][0] != in[1][0] {
		return 0, 0, fmt.Errorf("am: concat of %v", in)
	}
	c.rows, c.ca, c.cb = in[0][0], in[0][1], in[1][1]
	return c.rows, c.ca + c.cb, nil
}

func (c *concatCols) Forward(out []float64, in [][]float64) {
	w := c.ca + c.cb
	for r := 0; r < c.rows; r++ {
		copy(out[r*w:r*w+c.ca], in[0][r*c.ca:(r+1)*c.ca])
		copy(out[r*w+c.ca:(r+1)*w], in[1][r*c.cb:(r+1)*c.cb])
	}
}

func (c *concatCols) Backward(din [][]float64, dout []float64, _ [][]float64) {
	w := c.ca + c.cb
	for r := 0; r < c.rows; r++ {
		copy(din[0][r*c.ca:(r+1)*c.ca], dout[r*w:r*w+c.ca])
		copy(din[1][r*c.cb:(r+1)*c.cb], dout[r*w+c.ca:(r+1)*w])
	}
}
