package am

import (
	"fmt"
	"io"
	"math"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/sru"
)

// The dnn model is Kaldi nnet1's feed-forward network (steps/nnet/train.sh,
// the "Kaldi DNN" row of the STRODE paper's table): the spliced features
// (the pipeline's --left-context/--right-context; nnet1 splices ±5) go
// through DNNLayers affine layers of DNNHidden units, each followed by the
// sigmoid (nnet1's default) or ReLU, then the affine output layer under
// the log-softmax. Every product is a float32 Affine through internal/gemm
// (float64 graph nodes for the gradient checks). Choices are in
// BASELINES.md.

// dnnArch is the "dnn" kind. Its parameters are "dnn.L.weight/bias" and
// "out.weight/bias".
type dnnArch struct {
	o      Options
	Hidden []*nn.Linear // the hidden affine layers under Model.Out
}

// preset: nnet1's 6 sigmoid layers × 2048 (pretrain_dbn.sh's DBN, the
// usual nnet1 "DNN"), or small's 3 × 512 (BASELINES.md).
func (*dnnArch) preset(name string, o *Options) {
	o.DNNActivation = DNNSigmoid
	if name == "paper" {
		o.DNNLayers, o.DNNHidden = 6, 2048
	} else {
		o.DNNLayers, o.DNNHidden = 3, 512
	}
}

func (*dnnArch) validate(o Options) error { return o.validateDNN() }

func (*dnnArch) shapes(o Options, s *shapeList) {
	in := o.InputDim
	for l := 0; l < o.DNNLayers; l++ {
		s.linear(fmt.Sprintf("dnn.%d", l), in, o.DNNHidden)
		in = o.DNNHidden
	}
	s.linear("out", in, o.NumPdfs)
}

func (*dnnArch) limits(o Options) (sizes, layers []namedSize) {
	return []namedSize{{"dnn_hidden", o.DNNHidden}}, []namedSize{{"dnn layers", o.DNNLayers}}
}

func (*dnnArch) describe(w io.Writer, o Options) {
	fmt.Fprintf(w, "hidden layers\t%d x %d, activation %s (nnet1-style feed-forward)\n", o.DNNLayers, o.DNNHidden, o.DNNActivation)
}

func (*dnnArch) paperMillions(Options) (int, bool) { return 0, false }

// readsAhead: the dnn sees only its spliced context (the pipeline's).
func (*dnnArch) readsAhead(Options) bool { return false }

// init initialises the layers as nnet1's make_nnet_proto.py (sigmoid) or
// with He's N(0, 2/in) and zero biases (ReLU, which nnet1's prototype
// script does not offer).
func (a *dnnArch) init(m *Model, rng *rand.Rand) error {
	o := m.Opts
	a.o = o
	in := o.InputDim
	for l := 0; l < o.DNNLayers; l++ {
		lin := m.zeroLinear(fmt.Sprintf("dnn.%d", l), in, o.DNNHidden)
		if o.DNNActivation == DNNReLU {
			fillNormal(lin.W.Data, math.Sqrt(2/float64(in)), rng)
		} else {
			std := nnet1Stddev(in, o.DNNHidden)
			if l == 0 {
				std *= math.Sqrt(1.0 / 12) // nnet1: N(0,1) features against U[0,1] sigmoid outputs
			}
			fillNormal(lin.W.Data, std, rng)
			for j := range lin.B.Data {
				lin.B.Data[j] = nnet1BiasMean + (rng.Float64()-0.5)*nnet1BiasRange
			}
		}
		a.Hidden = append(a.Hidden, lin)
		in = o.DNNHidden
	}
	m.Out = m.zeroLinear("out", in, o.NumPdfs)
	fillNormal(m.Out.W.Data, nnet1Stddev(in, o.NumPdfs), rng)
	return nil
}

// nnet1's prototype defaults (utils/nnet/make_nnet_proto.py): weights
// N(0, σ²) with σ = param-stddev-factor 0.1 × 35·√(2/(in+out)) (Glorot's
// scale, 35 making ≈ 1 for 1024-unit layers), hidden biases uniform with
// mean −2 and range 4, output bias 0.
const (
	nnet1StddevFactor = 0.1
	nnet1BiasMean     = -2.0
	nnet1BiasRange    = 4.0
)

func nnet1Stddev(in, out int) float64 {
	return nnet1StddevFactor * 35 * math.Sqrt(2/float64(in+out))
}

// zeroLinear adds a zero affine layer (name.weight in×out, name.bias 1×out).
func (m *Model) zeroLinear(name string, in, out int) *nn.Linear {
	return &nn.Linear{W: m.Params.Zero(name+".weight", in, out), B: m.Params.Zero(name+".bias", 1, out)}
}

func fillNormal(dst []float64, std float64, rng *rand.Rand) {
	for i := range dst {
		dst[i] = std * rng.NormFloat64()
	}
}

func (a *dnnArch) layers(net *nn.Net, x, _ *autodiff.Node, _, _ int, _ Mode) (layers, error) {
	h, err := a.hidden(net, x)
	return layers{enc: h}, err
}

// hidden builds the hidden layers on x (N×InputDim): the last hidden
// layer's output, N×DNNHidden (x itself without hidden layers).
func (a *dnnArch) hidden(net *nn.Net, x *autodiff.Node) (*autodiff.Node, error) {
	h := x
	for _, l := range a.Hidden {
		act := sru.ActSigmoid
		if a.o.DNNActivation == DNNReLU {
			act = sru.ActReLU
		}
		var err error
		if h, err = sru.AffineAct(net, h, l.W, l.B, act); err != nil {
			return nil, err
		}
	}
	return h, net.Err()
}

func (o Options) validateDNN() error {
	if o.DNNLayers < 0 || o.DNNHidden < 1 {
		return fmt.Errorf("am: --dnn-layers=%d must be ≥ 0 and --dnn-hidden=%d ≥ 1", o.DNNLayers, o.DNNHidden)
	}
	if o.DNNActivation != DNNSigmoid && o.DNNActivation != DNNReLU {
		return fmt.Errorf("am: unknown --dnn-activation=%q (want sigmoid or relu)", o.DNNActivation)
	}
	return nil
}

// newStream: every layer is per frame, so the whole network runs as graphs
// on the new frames (tails).
func (a *dnnArch) newStream(m *Model) (streamer, error) {
	return &dnnStream{newTails(m.Opts.NumPdfs, func(rows int) (*tail, error) {
		net := nn.NewNet()
		x, in := net.Input("x", rows, m.Opts.InputDim)
		e, err := a.hidden(net, x)
		if err != nil {
			return nil, err
		}
		logits, err := sru.Affine(net, e, m.Out.W, m.Out.B)
		if err != nil {
			return nil, err
		}
		return compileTail(net, rows, in, logits)
	})}, nil
}

type dnnStream struct{ tails *tails }

func (s *dnnStream) reset()                                           {}
func (s *dnnStream) close()                                           { s.tails.close() }
func (s *dnnStream) forward(x []float32, rows int) ([]float64, error) { return s.tails.run(x, rows) }
