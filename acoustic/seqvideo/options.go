package seqvideo

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/strode"
)

// The four models of the STRODE paper's Table 1.
const (
	NODE      = "node"       // index times, latent ODE from each encoded frame
	ODERNN    = "odernn"     // NODE + an SRU over the ODE outputs
	STRODE    = "strode"     // boundaries t_i = Φ(t_{i−1}, z_i), KL term and prior
	STRODERNN = "strode-rnn" // STRODE + the SRU
)

// Models lists the model names in the order of the paper's table.
var Models = []string{NODE, ODERNN, STRODE, STRODERNN}

// ImageSize is the side of a frame: the reference's 64×64 canvas, which
// the encoder's strides (4, 2, 2, then a 4×4 valid convolution) reduce to
// 1×1 exactly.
const ImageSize = 64

// Options configures a model; the defaults are the reference code's
// (Waffle-Liu/STRODE rotatingMNIST/) except the width NDF.
type Options struct {
	Model     string  // node, odernn, strode or strode-rnn
	NDF       int     // encoder/decoder width: channels 1 → NDF → 2·NDF → 4·NDF → 4·NDF; latent size 4·NDF
	PhiHidden int     // hidden size of Φ and φ (the reference's time_dim 64)
	ODEHidden int     // hidden size of f_o (the reference's create_net n_units 100)
	RNNLayers int     // SRU layers of odernn and strode-rnn (the reference's 2)
	WKL       float64 // weight of the KL term (the reference's 5e-5)
	// WTurn weighs phase-state's registration term: the mean squared
	// difference, in radians², between each turn ω·g_i and the turn that
	// best registers frame i−1 onto frame i (FrameTurns).
	WTurn float64
	// Variant is the form of the ODE and the loss (strode.Variant names):
	// paper, the reference's f_o from every frame with one-step
	// predictions; or the rotation form (rotation.go).
	Variant strode.Variant
	// Float64 runs the convolutions, the Euler solve and the SRU in
	// float64 (gradient checks); the default float32 products are how the
	// reference trains.
	Float64 bool
	ODE     ode.Options
	KL      strode.KLOptions
}

// DefaultOptions are the reference's settings at the CPU width NDF = 16
// (the paper's is 128): latent 64, Φ/φ hidden 64, f_o hidden 100, 10 Euler
// steps, ε = 0.1, w_kl = 5e-5, two SRU layers.
func DefaultOptions() Options {
	o := Options{Model: STRODE, NDF: 16, PhiHidden: 64, ODEHidden: 100, RNNLayers: 2, WKL: 5e-5, WTurn: 1, Variant: strode.VariantPaper,
		ODE: ode.DefaultOptions(), KL: strode.KLOptions{Epsilon: 0.1}}
	o.ODE.DType = ode.Float32
	return o
}

// Register adds the options to fs (the model name is the caller's).
func (o *Options) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.NDF, "ndf", o.NDF, "width of the CNN encoder and decoder (paper 128); the latent size is 4*ndf")
	fs.IntVar(&o.PhiHidden, "phi-hidden", o.PhiHidden, "hidden size of the boundary network and the prior")
	fs.IntVar(&o.ODEHidden, "ode-hidden", o.ODEHidden, "hidden size of the ODE function")
	fs.IntVar(&o.RNNLayers, "rnn-layers", o.RNNLayers, "SRU layers of odernn and strode-rnn")
	fs.Float64Var(&o.WKL, "w-kl", o.WKL, "weight of the KL term (strode, strode-rnn)")
	fs.Float64Var(&o.WTurn, "w-turn", o.WTurn, "weight of the registration term of phase-state and pose (strode): ω·gap against the turn that registers consecutive frames (pose: also ω·t_0 against the first frame's pose)")
	fs.StringVar((*string)(&o.Variant), "variant", string(o.Variant), "form of the ODE and the loss: paper, phase-state or pose")
	o.ODE.Register(fs)
	o.KL.Register(fs)
}

// Validate checks the options.
func (o Options) Validate() error {
	switch o.Model {
	case NODE, ODERNN, STRODE, STRODERNN:
	default:
		return fmt.Errorf("seqvideo: unknown model %q (want node, odernn, strode or strode-rnn)", o.Model)
	}
	if o.NDF < 1 || o.PhiHidden < 1 || o.ODEHidden < 1 || o.RNNLayers < 1 {
		return fmt.Errorf("seqvideo: --ndf=%d --phi-hidden=%d --ode-hidden=%d --rnn-layers=%d: must be ≥ 1",
			o.NDF, o.PhiHidden, o.ODEHidden, o.RNNLayers)
	}
	if o.Variant != VariantPose {
		if err := o.Variant.Validate(); err != nil {
			return fmt.Errorf("%w (or %s)", err, VariantPose)
		}
	}
	if o.Variant == VariantPose && o.Model != STRODE {
		return fmt.Errorf("seqvideo: --variant=pose is for strode, not %s: its first time is Φ's reading of the first frame's pose, which index times do not have, and its frames are decoded as they turn, with no SRU over them", o.Model)
	}
	if o.Turned() && o.Recurrent() {
		return fmt.Errorf("seqvideo: --variant=%s is for node and strode (its states are decoded as they turn, with no SRU over them), not %s", o.Variant, o.Model)
	}
	if o.WKL < 0 || o.WTurn < 0 {
		return fmt.Errorf("seqvideo: --w-kl=%g --w-turn=%g: must be ≥ 0", o.WKL, o.WTurn)
	}
	if _, err := strode.NewKL(o.KL); err != nil {
		return err
	}
	return o.ODE.Validate()
}

// VariantPose is Rotating MNIST's phase-state with its angle carried
// across the whole video (rotation.go): every frame is drawn as a decoded
// digit in a canonical pose turned by ω·t_i, the absolute time, so that the
// first time t_0 is the first frame's turn from that pose and the frames
// pin it (DESIGN.md §3). A seqvideo variant only: the sine recipe's
// sequential model has no pose.
const VariantPose strode.Variant = "pose"

// Turned reports whether the variant draws turned frames (phase-state and
// pose) instead of the paper's f_o and decoder.
func (o Options) Turned() bool {
	return o.Variant == strode.VariantPhaseState || o.Variant == VariantPose
}

// Latent is the size of the latent state, 4·NDF.
func (o Options) Latent() int { return 4 * o.NDF }

// Learned reports whether the model infers its times (strode, strode-rnn).
func (o Options) Learned() bool { return o.Model == STRODE || o.Model == STRODERNN }

// Recurrent reports whether the model has the SRU (odernn, strode-rnn).
func (o Options) Recurrent() bool { return o.Model == ODERNN || o.Model == STRODERNN }
