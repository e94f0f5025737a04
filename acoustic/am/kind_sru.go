package am

import (
	"io"
	"math/rand"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/sru"
)

// sruArch is the "sru" kind: the SRU encoder with the affine output on it,
//
//	logits_i = W·SRU(x)_i + b.
//
// Its parameters are the encoder "sru.L.*" and the output "out.*".
type sruArch struct {
	enc *sru.Encoder
}

func (*sruArch) preset(string, *Options) {} // Preset's sizes

func (*sruArch) validate(Options) error { return nil }

func (*sruArch) shapes(o Options, s *shapeList) {
	s.sruStack("sru", o.InputDim, o.SRU)
	s.linear("out", o.SRU.OutDim(), o.NumPdfs)
}

func (*sruArch) limits(o Options) (sizes, layers []namedSize) {
	return []namedSize{{"sru hidden", o.SRU.Hidden}}, []namedSize{{"SRU layers", o.SRU.Layers}}
}

func (*sruArch) describe(w io.Writer, o Options) { describeEncoder(w, o) }

func (*sruArch) paperMillions(Options) (int, bool) { return 0, false }

func (*sruArch) readsAhead(o Options) bool { return o.SRU.Bidirectional }

func (a *sruArch) init(m *Model, rng *rand.Rand) error {
	var err error
	if a.enc, err = newSRUEncoder(m, rng); err != nil {
		return err
	}
	m.Out = nn.NewLinear(&m.Params, "out", m.Opts.SRU.OutDim(), m.Opts.NumPdfs, rng)
	return nil
}

// newSRUEncoder adds the SRU encoder "sru.L.*" on the input features.
func newSRUEncoder(m *Model, rng *rand.Rand) (*sru.Encoder, error) {
	return sru.NewEncoder(&m.Params, "sru", m.Opts.InputDim, m.Opts.SRU, rng)
}

func (a *sruArch) layers(net *nn.Net, x, mask *autodiff.Node, t, b int, mode Mode) (layers, error) {
	e, _, drop, err := a.enc.ApplyShared(net, x, mask, t, b, mode == Train)
	if err != nil {
		return layers{}, err
	}
	return layers{enc: e, drops: []*sru.Dropout{drop}}, nil
}

func (a *sruArch) newStream(m *Model) (streamer, error) {
	enc, err := a.enc.NewStream()
	if err != nil {
		return nil, err
	}
	return &sruStream{enc: enc, out: newAffine32(m.Out), p: m.Opts.NumPdfs}, nil
}

// sruStream runs the SRU stack and the output layer on frames as they
// come, in float32 outside a graph (sru.Stream).
type sruStream struct {
	enc    *sru.Stream
	out    affine32
	p      int
	logits []float64
}

func (s *sruStream) reset() { s.enc.Reset() }
func (s *sruStream) close() {}

func (s *sruStream) forward(x []float32, rows int) ([]float64, error) {
	e, err := s.enc.Forward(x, rows)
	if err != nil {
		return nil, err
	}
	s.logits = growF64(s.logits, rows*s.p)
	s.out.apply(e, rows, s.logits)
	return s.logits, nil
}
