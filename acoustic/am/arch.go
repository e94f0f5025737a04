package am

import (
	"fmt"
	"io"
	"math/rand"
	"sort"
	"strings"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/optim"
	"github.com/strode-asr/strode/acoustic/sru"
)

// arch is one model kind: the layers between the input features and the
// affine output layer under the log-softmax, which every kind shares
// (Model.Out, the fused output and cross-entropy of Batch), and what the
// kind adds to the loss. The rest of the package — minibatch graphs,
// streaming, the model file, model-info — asks the kind through this
// interface and never branches on Options.Kind.
//
// A new kind is one file with a type that implements arch and one line in
// kinds below; its options go in Options (absent from the JSON when zero,
// so older files still load).
type arch interface {
	// preset sets the kind's own sizes in o for the named preset, "paper"
	// or "small" (PresetFor; o holds Preset's).
	preset(name string, o *Options)
	// validate checks the options only this kind reads (Options.Validate
	// has checked the common ones).
	validate(o Options) error
	// shapes adds the parameter tensors init creates, in the same order,
	// without allocating them (Shapes).
	shapes(o Options, s *shapeList)
	// limits are the kind's sizes that every saved model has a tensor
	// dimension at least as large as, and its layer counts, each of which
	// is at most the number of tensors: Load checks them before it
	// allocates a model from a file's options.
	limits(o Options) (sizes, layers []namedSize)
	// describe writes the kind's lines of model-info's architecture
	// block (tab-separated: name, then what it is).
	describe(w io.Writer, o Options)
	// paperMillions is the parameter count, in millions, that the STRODE
	// paper reports for a model of o's sizes, if o has the paper's sizes.
	paperMillions(o Options) (int, bool)
	// readsAhead tells whether the kind's layers see frames after t when
	// computing frame t's output (a bidirectional SRU).
	readsAhead(o Options) bool

	// init creates m's parameters (m.Params, and m.Out among them) from
	// rng, in the order shapes lists them.
	init(m *Model, rng *rand.Rand) error
	// layers builds the kind's part of a minibatch graph on the input
	// rows x (N×InputDim, time-major, mask N×1): what the output layer
	// reads, and the kind's loss terms.
	layers(net *nn.Net, x, mask *autodiff.Node, t, b int, mode Mode) (layers, error)
	// newStream returns the kind's incremental forward pass (stream.go).
	newStream(m *Model) (streamer, error)
}

// kinds is the registry of model kinds: --model's values.
var kinds = map[string]func() arch{
	KindSRU:    func() arch { return &sruArch{} },
	KindSTRODE: func() arch { return &strodeArch{} },
	KindODERNN: func() arch { return &odernnArch{} },
	KindDNN:    func() arch { return &dnnArch{} },
}

// Kinds lists the registered model kinds, sorted.
func Kinds() []string {
	var ks []string
	for k := range kinds {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// archOf returns a new, parameterless arch of o's kind.
func archOf(o Options) (arch, error) {
	k, ok := kinds[o.Kind]
	if !ok {
		return nil, fmt.Errorf("am: unknown --model=%q (want %s)", o.Kind, strings.Join(Kinds(), ", "))
	}
	return k(), nil
}

// layers is what a kind's graph gives the shared output layer and loss.
type layers struct {
	// enc is what the output layer's W reads (Batch.Enc): the SRU
	// encoder's output, odernn's decoder's, dnn's last hidden layer.
	enc *autodiff.Node
	// outIn, when not nil, is what W reads instead of enc (strode's head
	// variants: h̃, or e through h̃'s gate); Batch.Enc stays enc.
	outIn *autodiff.Node
	// more are further inputs of the output layer and their weights:
	// logits = enc·W + Σ more[i]·moreW[i] + b (strode: h̃ and W_h).
	more  []*autodiff.Node
	moreW []*optim.Param
	drops []*sru.Dropout // every SRU stack's dropout masks (nil entries: none)

	ttilde, htilde *autodiff.Node // strode: t̃ (N×1) and h̃ (N×S); nil for the others
	// loss, when not nil, adds the kind's terms to the cross-entropy ce
	// (Eval and Train graphs; maskw weighs the frames): it may set bt's
	// KL, LogP and inputs of its own.
	loss func(net *nn.Net, bt *Batch, ce, maskw *autodiff.Node) (*autodiff.Node, error)
}

// namedSize is one size of Options, named for Load's errors.
type namedSize struct {
	name string
	v    int
}

// shapeList collects TensorShapes.
type shapeList struct{ ts []TensorShape }

func (s *shapeList) add(name string, rows, cols int) {
	s.ts = append(s.ts, TensorShape{name, rows, cols})
}

// linear adds an affine layer's name.weight (in×out) and name.bias (1×out).
func (s *shapeList) linear(name string, in, out int) {
	s.add(name+".weight", in, out)
	s.add(name+".bias", 1, out)
}

// sruStack adds the tensors of sru.NewEncoder(prefix, in, so).
func (s *shapeList) sruStack(prefix string, in int, so sru.Options) {
	h := so.Hidden
	for l := 0; l < so.Layers; l++ {
		k := 3
		if in != so.OutDim() {
			k = 4
		}
		dirs := []string{""}
		if so.Bidirectional {
			dirs = append(dirs, ".reverse")
		}
		for _, d := range dirs {
			name := fmt.Sprintf("%s.%d%s", prefix, l, d)
			s.add(name+".weight", in, k*h)
			s.add(name+".weight_c", 1, 2*h)
			s.add(name+".bias", 1, 2*h)
		}
		in = so.OutDim()
	}
}

// odeMLP adds f_o's three layers "ode.0-2" for a state of s values.
func (s *shapeList) odeMLP(state, hidden int) {
	s.linear("ode.0", state, hidden)
	s.linear("ode.1", hidden, hidden)
	s.linear("ode.2", hidden, state)
}

// describeEncoder writes the SRU encoder's model-info line.
func describeEncoder(w io.Writer, o Options) {
	fmt.Fprintf(w, "encoder\tSRU %d layers x %d%s, activation %s, dropout %g, highway bias %g\n",
		o.SRU.Layers, o.SRU.Hidden, directions(o), o.SRU.Activation, o.SRU.Dropout, o.SRU.HighwayBias)
}

// directions is model-info's note on a bidirectional SRU ("" otherwise).
func directions(o Options) string {
	if o.SRU.Bidirectional {
		return fmt.Sprintf(" x 2 directions (output %d)", o.SRU.OutDim())
	}
	return ""
}
