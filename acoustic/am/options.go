package am

import (
	"encoding/json"
	"flag"
	"fmt"

	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/sru"
	"github.com/strode-asr/strode/acoustic/strode"
	"github.com/strode-asr/strode/acoustic/strodehead"
)

// Parameterisations of the z branch b(z) of the boundary network Φ.
const (
	PhiZNonPos = strodehead.PhiZNonPos // DESIGN.md: V3·tanh(V2·(V1·z)), every V ≤ 0
	PhiZFree   = strodehead.PhiZFree   // a tanh MLP with free signs and biases (strodehead's boundaryZ)
)

// Head variants of the strode kind: what its output layer reads
// (strodehead/variant.go).
const (
	HeadPaper  = strodehead.VariantPaper  // W·e + W_h·h̃ + b
	HeadHTilde = strodehead.VariantHTilde // W·h̃ + b
	HeadGated  = strodehead.VariantGated  // W·(e ⊙ σ(G·h̃ + g)) + W_h·h̃ + b
	// W·e(i + min(t̃, L)) + W_h·h̃ + b on a causal encoder, + w_latency·mean t̃ in the loss
	HeadLookahead = strodehead.VariantLookahead
)

// PriorTeacher is Options.PriorInput for a prior that reads a teacher's
// encoder output.
const PriorTeacher = "teacher"

// Model kinds.
const (
	KindSRU    = "sru"    // SRU encoder + affine + log-softmax
	KindSTRODE = "strode" // SRU encoder + regenerative STRODE head
	KindODERNN = "odernn" // SRU encoder + ODE-RNN layer + SRU decoder + affine (kind_odernn.go)
	KindDNN    = "dnn"    // nnet1-style feed-forward network on spliced features (kind_dnn.go)
)

// Hidden-layer activations of the dnn model.
const (
	DNNSigmoid = "sigmoid" // nnet1's default
	DNNReLU    = "relu"
)

// Options configures a model. Sizes of the head are ignored for "sru";
// the dnn and odernn fields only matter for those kinds (zero, and absent
// from the JSON, for the others).
type Options struct {
	Kind        string           `json:"kind"`
	SRU         sru.Options      `json:"sru"`
	ODEState    int              `json:"ode_state"`    // size of h
	ODEHidden   int              `json:"ode_hidden"`   // hidden size of f_o
	PhiHidden   int              `json:"phi_hidden"`   // hidden size of Φ and φ
	PriorHidden int              `json:"prior_hidden"` // hidden size of the MLP giving μ, σ² from x_{i+1} (or the teacher's encoding)
	WKL         float64          `json:"w_kl"`
	WP          float64          `json:"w_p"`
	Eps0        float64          `json:"eps0"`                   // ε0 of t̃_i = Φ(ε0, e_i)
	PhiZ        string           `json:"phi_z,omitempty"`        // b(z) of Φ: "nonpos" ("" in old files; DESIGN.md) or "free"
	HeadVariant string           `json:"head_variant,omitempty"` // strode: what the output layer reads: "paper" ("" in old files), "htilde", "gated" or "lookahead" (strodehead/variant.go)
	ODE         ode.Options      `json:"ode"`
	KL          strode.KLOptions `json:"kl"`
	TargetDelay int              `json:"target_delay,omitempty"` // output frame t+TargetDelay predicts the label of frame t (see delay.go)
	InputDim    int              `json:"input_dim"`              // features per frame after the pipeline
	NumPdfs     int              `json:"num_pdfs"`

	// PriorInput (strode) is what the Gaussian prior's MLP reads for frame
	// i: "" the next frame's input features x_{i+1} (DESIGN.md §3), or
	// PriorTeacher a frozen bidirectional teacher's encoder output at frame
	// i, PriorInputDim values (strode train --prior-teacher; teacher.go).
	// Only training reads it: the model decodes without the teacher. Set
	// only for a teacher, whose width gives gauss.0 another shape, so older
	// files load as they are.
	PriorInput    string `json:"prior_input,omitempty"`
	PriorInputDim int    `json:"prior_input_dim,omitempty"`

	// FixedTTilde (strode, nil: off) fixes every frame's ODE interval to
	// [0, *FixedTTilde] frames instead of [0, Φ(ε0, e_i)]: the constant-t̃
	// ablation, which tells whether the learned boundary matters
	// (fixedttilde.go).
	FixedTTilde *float64 `json:"fixed_t_tilde,omitempty"`

	// --head-variant=lookahead only (strodehead/lookahead.go): the bound L
	// of the look-ahead in frames and the latency term's weight. Presets
	// set their defaults for every model; JSON leaves them out of the
	// other variants' model files, which they do not affect.
	MaxLookahead int     `json:"max_lookahead,omitempty"`
	WLatency     float64 `json:"w_latency,omitempty"`

	// odernn: SRU decoder layers (of SRU.Hidden units) after the ODE-RNN
	// layer, whose state has ODEState values and evolves by f_o (ODEHidden)
	// in ODE.Steps Euler steps over the unit interval between frames.
	DecoderLayers int `json:"decoder_layers,omitempty"`
	// dnn: hidden affine layers, their width and activation.
	DNNLayers     int    `json:"dnn_layers,omitempty"`
	DNNHidden     int    `json:"dnn_hidden,omitempty"`
	DNNActivation string `json:"dnn_activation,omitempty"`
}

// Preset returns the named preset: "paper" (9×900 SRU, ODE state 128, f_o
// hidden 64, Φ/φ hidden 128, dropout 0.1) or "small" (4×256, ODE state 64,
// f_o hidden 32, Φ/φ hidden 32, dropout 0.1) for CPU recipes. InputDim and
// NumPdfs are left to the caller.
func Preset(name string) (Options, error) {
	o := Options{Kind: KindSTRODE, SRU: sru.DefaultOptions(), ODEState: 128, ODEHidden: 64, PhiHidden: 128,
		PriorHidden: 128, WKL: 1e-3, WP: 1e-3, Eps0: 1e-6, PhiZ: PhiZNonPos, HeadVariant: HeadPaper, ODE: ode.DefaultOptions(), KL: strode.KLOptions{Epsilon: 0.1},
		MaxLookahead: strodehead.DefaultMaxLookahead, WLatency: strodehead.DefaultWLatency}
	switch name {
	case "paper":
	case "small":
		o.SRU.Hidden, o.SRU.Layers = 256, 4
		o.ODEState, o.ODEHidden, o.PhiHidden, o.PriorHidden = 64, 32, 32, 64
	default:
		return o, fmt.Errorf("am: unknown preset %q (want paper or small)", name)
	}
	return o, nil
}

// PresetFor is the named preset for a model kind: Preset's for sru and
// strode; for odernn the paper's 9 SRU layers × 1100, ODE state 128 and
// 9 decoder layers (the STRODE paper's ODE-RNN baseline), or small's 2 + 2
// layers × 256 (ODE state 64, f_o hidden 32: about the small strode's
// parameters); for dnn nnet1's 6 sigmoid layers × 2048 (pretrain_dbn.sh's
// DBN, the usual nnet1 "DNN") or small's 3 × 512 (BASELINES.md).
func PresetFor(name, kind string) (Options, error) {
	o, err := Preset(name)
	if err != nil {
		return o, err
	}
	o.Kind = kind
	if a, err := archOf(o); err == nil { // an unknown kind is Validate's to refuse
		a.preset(name, &o)
	}
	return o, nil
}

// Register adds the size options to fs (the preset is applied first by the
// caller; flags given explicitly override it).
func (o *Options) Register(fs *flag.FlagSet) {
	fs.StringVar(&o.Kind, "model", o.Kind, "model kind: sru (encoder + affine), strode (encoder + STRODE head), odernn (encoder + ODE-RNN + SRU decoder, the paper's baseline) or dnn (nnet1-style feed-forward on spliced features)")
	fs.IntVar(&o.DecoderLayers, "decoder-layers", o.DecoderLayers, "odernn: SRU layers (of --sru-hidden units) after the ODE-RNN layer")
	fs.IntVar(&o.DNNLayers, "dnn-layers", o.DNNLayers, "dnn: number of hidden layers (nnet1's --hid-layers)")
	fs.IntVar(&o.DNNHidden, "dnn-hidden", o.DNNHidden, "dnn: units per hidden layer (nnet1's --hid-dim)")
	fs.StringVar(&o.DNNActivation, "dnn-activation", o.DNNActivation, "dnn: hidden activation, sigmoid (nnet1's default) or relu")
	o.SRU.Register(fs)
	fs.IntVar(&o.ODEState, "ode-state", o.ODEState, "size of the ODE state h")
	fs.IntVar(&o.ODEHidden, "ode-hidden", o.ODEHidden, "hidden size of the ODE function f_o")
	fs.IntVar(&o.PhiHidden, "phi-hidden", o.PhiHidden, "hidden size of the boundary network and the prior")
	fs.IntVar(&o.PriorHidden, "prior-hidden", o.PriorHidden, "hidden size of the MLP giving the Gaussian prior from the next frame")
	fs.StringVar(&o.PhiZ, "phi-z", o.PhiZ, "z branch b(z) of the boundary network: nonpos (DESIGN.md, all weights <= 0) or free (signs and biases free)")
	fs.StringVar(&o.HeadVariant, "head-variant", o.HeadVariant, strodehead.VariantUsage)
	fs.IntVar(&o.MaxLookahead, "max-lookahead", o.MaxLookahead, "strode --head-variant=lookahead: the most frames the output layer reads ahead, L: frame i's output reads the causal encoder at i + min(t~_i, L) and waits for ceil(min(t~_i, L)) frames")
	fs.Float64Var(&o.WLatency, "w-latency", o.WLatency, "strode --head-variant=lookahead: weight of the latency term w * mean t~ (nats per frame of look-ahead) that keeps t~ from running to --max-lookahead")
	fs.IntVar(&o.TargetDelay, "target-delay", o.TargetDelay, "frames of look-ahead: the output at frame t+N is trained on (and forward reports it as) frame t's label, as nnet1's --targets-delay for its LSTMs")
	fs.Var(strodehead.FixedFlag{P: &o.FixedTTilde}, "fixed-t-tilde", strodehead.FixedUsage)
	fs.Float64Var(&o.WKL, "w-kl", o.WKL, "weight of the KL term")
	fs.Float64Var(&o.WP, "w-p", o.WP, "weight of the Gaussian prior term on the ODE solution")
	o.ODE.Register(fs)
	o.KL.Register(fs)
}

// Validate checks the options: those every kind reads, then the kind's own.
func (o Options) Validate() error {
	a, err := archOf(o)
	if err != nil {
		return err
	}
	if err := o.SRU.Validate(); err != nil {
		return err
	}
	if o.TargetDelay < 0 {
		return fmt.Errorf("am: --target-delay=%d must be ≥ 0", o.TargetDelay)
	}
	if o.InputDim < 1 || o.NumPdfs < 1 {
		return fmt.Errorf("am: input dim %d and number of pdfs %d must be ≥ 1", o.InputDim, o.NumPdfs)
	}
	if c, ok := o.FixedBoundary(); ok && o.Kind != KindSTRODE {
		return fmt.Errorf("am: --fixed-t-tilde=%g is for --model=strode, this one is %q", c, o.Kind)
	}
	if err := o.validPriorInput(); err != nil {
		return err
	}
	if o.HeadVariant != "" && o.HeadVariant != HeadPaper && o.Kind != KindSTRODE {
		return fmt.Errorf("am: --head-variant=%s is for --model=strode, this one is %q", o.HeadVariant, o.Kind)
	}
	return a.validate(o)
}

// validPriorInput checks PriorInput and PriorInputDim.
func (o Options) validPriorInput() error {
	switch o.PriorInput {
	case "":
		if o.PriorInputDim != 0 {
			return fmt.Errorf("am: prior_input_dim %d without prior_input %q", o.PriorInputDim, PriorTeacher)
		}
	case PriorTeacher:
		if o.Kind != KindSTRODE {
			return fmt.Errorf("am: a teacher prior (--prior-teacher) is for --model=strode, this one is %q", o.Kind)
		}
		if o.PriorInputDim < 1 {
			return fmt.Errorf("am: prior_input_dim %d must be ≥ 1 for a teacher prior", o.PriorInputDim)
		}
	default:
		return fmt.Errorf("am: unknown prior_input %q (want %q or none)", o.PriorInput, PriorTeacher)
	}
	return nil
}

// PriorDim is the width of what the Gaussian prior's MLP reads per frame:
// the input features, or a teacher's encoding (PriorInput).
func (o Options) PriorDim() int {
	if o.PriorInput == PriorTeacher {
		return o.PriorInputDim
	}
	return o.InputDim
}

// JSON is the options as one line of JSON (model-file metadata). The
// look-ahead options are left out unless the head reads ahead, so the other
// models' files (and the checks that compare options by their JSON) are as
// they were before that variant.
func (o Options) JSON() string {
	if o.HeadVariant != HeadLookahead {
		o.MaxLookahead, o.WLatency = 0, 0
	}
	b, _ := json.Marshal(o)
	return string(b)
}

// FixedBoundary is the fixed t̃ in frames and whether one is set.
func (o Options) FixedBoundary() (float64, bool) {
	if o.FixedTTilde == nil {
		return 0, false
	}
	return *o.FixedTTilde, true
}
