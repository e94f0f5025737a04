package am

import (
	"fmt"
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

// newDNN adds the parameters "dnn.L.weight/bias" and "out.weight/bias",
// initialised as nnet1's make_nnet_proto.py (sigmoid) or with He's
// N(0, 2/in) and zero biases (ReLU, which nnet1's prototype script does not
// offer).
func (m *Model) newDNN(rng *rand.Rand) {
	o := m.Opts
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
		m.Hidden = append(m.Hidden, lin)
		in = o.DNNHidden
	}
	m.Out = m.zeroLinear("out", in, o.NumPdfs)
	fillNormal(m.Out.W.Data, nnet1Stddev(in, o.NumPdfs), rng)
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

// dnnHidden builds the hidden layers on x (N×InputDim): the last hidden
// layer's output, N×DNNHidden (x itself without hidden layers).
func (m *Model) dnnHidden(net *nn.Net, x *autodiff.Node) (*autodiff.Node, error) {
	h := x
	for _, l := range m.Hidden {
		act := sru.ActSigmoid
		if m.Opts.DNNActivation == DNNReLU {
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
