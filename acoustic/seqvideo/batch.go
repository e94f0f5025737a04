package seqvideo

import (
	"fmt"
	"hash/maphash"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
	"github.com/strode-asr/strode/acoustic/ode"
	"github.com/strode-asr/strode/acoustic/optim"
)

// FramePixels is the number of values of one frame, 64·64.
const FramePixels = ImageSize * ImageSize

// Batch is a model's graph for batches of B videos of N frames, built once
// and run for every batch. Rows of every per-frame matrix are step-major:
// row i·B + s is frame i of video s.
type Batch struct {
	B, N    int
	Net     *nn.Net
	Loss    *autodiff.Node // MSE + w_kl·KL
	MSE     *autodiff.Node // mean squared error of every predicted pixel, the reference's
	KL      *autodiff.Node // mean KL term (nil for the index-time models)
	Turn    *autodiff.Node // phase-state's registration term, radians² (nil otherwise)
	Pred    *autodiff.Node // (N·B) × 4096: row i·B + s predicts frame min(i+1, N−1) of video s
	Gaps    *autodiff.Node // (N·B) × 1: g_i = t_i − t_{i−1} with t_{−1} = 0 (nil for index times)
	Machine *autodiff.Machine
	Params  []*optim.Param // parameters of a training graph, in gradient order
	x, y    []float64
	turn    []float64 // phase-state's registered turns, step-major as x (nil otherwise)
	model   *Model
}

// Build returns the graph for b videos of n ≥ 2 frames; with train it also
// computes the gradient of the loss for every parameter. The graph does
// what the reference's forward does:
//
//   - z_i = enc(x_i) for every frame (one batch of N·B images);
//   - times: index models t_i = i; learned models t_i = Φ(t_{i−1}, z_i) with
//     t_{−1} = 0, so t_0 = Φ(0, z_0) > 0 as in the reference;
//   - h_i = the Euler solve of dh/dτ = f_o(h) from z_i over [t_i, t_{i+1}],
//     for i = 0 … N−1 with t_N := t_{N−1} (the last frame's interval is
//     empty, so h_{N−1} = z_{N−1});
//   - with the SRU, h ← SRU(h_0 … h_{N−1}) (causal, over the frames);
//   - x̂_{i+1} = dec(h_i), compared with x_{min(i+1, N−1)}: N−1 predictions
//     of the next frame and one reconstruction of the last;
//   - loss = mean squared error over every pixel + w_kl·mean KL term of
//     q(t | z_i) against the prior φ, i = 0 … N−1.
func (m *Model) Build(b, n int, train bool) (*Batch, error) {
	if b < 1 || n < 2 {
		return nil, fmt.Errorf("seqvideo: batch %d×%d: need ≥ 1 video of ≥ 2 frames", b, n)
	}
	o := m.Opts
	net := nn.NewNet()
	bt := &Batch{B: b, N: n, Net: net, model: m}
	var x, y *autodiff.Node
	x, bt.x = net.Input("frames", n*b, FramePixels)
	y, bt.y = net.Input("targets", n*b, FramePixels)
	z := m.Enc.Apply(net, x)

	last := net.Const("last-span", make([]float64, b), b, 1) // the empty interval of the last frame
	var spans *autodiff.Node
	if o.Learned() {
		var bz *autodiff.Node
		var turn *autodiff.Node
		if o.Turned() {
			turn, bt.turn = net.Input("turns", n*b, 1)
			bz = net.Add(m.pairB(net, z, b, n), net.MatMul(turn, net.P(m.TurnGain)))
		} else {
			bz = m.Boundary.BFused(net, z)
		}
		bt.Gaps = m.Boundary.Gaps(net, bz, b)
		spans = net.ConcatRows(net.Rows(bt.Gaps, b, n*b), last)
		p := m.Prior.DensityFused(net, m.kl.Nodes())
		bt.KL = net.Mean(m.Boundary.KLTerm(net, m.kl, bz, p))
		if turn != nil {
			// The registration term: each turn ω·g_i, i ≥ 1, against r_i;
			// for pose also ω·t_0 against r_0, the first frame's pose.
			from := b
			if o.Variant == VariantPose {
				from = 0
			}
			bt.Turn = meanSquaredError(net, net.MatMul(net.Rows(bt.Gaps, from, n*b), net.P(m.Omega)), net.Rows(turn, from, n*b))
		}
	} else {
		ones := make([]float64, n*b)
		for i := range ones[:(n-1)*b] {
			ones[i] = 1
		}
		spans = net.Const("unit-spans", ones, n*b, 1)
	}
	so := o.ODE
	if o.Float64 {
		so.DType = ode.Float64
	}
	if m.Omega != nil {
		m.rotationLoss(bt, net, x, y, z, spans)
	} else {
		h := ode.Solver{Opts: so}.SolveMLP(net.Graph, m.mlp(net), z, spans)
		if m.RNN != nil {
			mask := make([]float64, n*b)
			for i := range mask {
				mask[i] = 1
			}
			var err error
			if h, _, err = m.RNN.Apply(net, h, net.Const("mask", mask, n*b, 1), n, b, train); err != nil {
				return nil, err
			}
		}
		bt.Pred = m.Dec.Apply(net, h)
		bt.MSE = meanSquaredError(net, bt.Pred, y)
		bt.Loss = bt.MSE
	}
	if bt.KL != nil {
		bt.Loss = net.Add(bt.Loss, net.Scale(bt.KL, o.WKL))
	}
	if bt.Turn != nil {
		bt.Loss = net.Add(bt.Loss, net.Scale(bt.Turn, o.WTurn))
	}
	var wrt []*autodiff.Node
	if train {
		bt.Params, wrt = net.Bound()
	}
	mc, err := net.Compile(bt.Loss, wrt)
	if err != nil {
		return nil, fmt.Errorf("seqvideo: %s: %w", o.Model, err)
	}
	bt.Machine = mc
	return bt, nil
}

// Set loads a batch of exactly B videos, each N frames of 64×64 8-bit grey
// pixels one after the other (frame f at video[f·4096:]), scaled to [0, 1]
// as the reference's data/255.
func (bt *Batch) Set(videos [][]uint8) error {
	if len(videos) != bt.B {
		return fmt.Errorf("seqvideo: batch of %d videos, graph built for %d", len(videos), bt.B)
	}
	for s, v := range videos {
		if len(v) != bt.N*FramePixels {
			return fmt.Errorf("seqvideo: video %d has %d bytes, want %d frames of %d", s, len(v), bt.N, FramePixels)
		}
		for i := 0; i < bt.N; i++ {
			row := bt.x[(i*bt.B+s)*FramePixels:][:FramePixels]
			for j, p := range v[i*FramePixels : (i+1)*FramePixels] {
				row[j] = float64(p) / 255
			}
		}
		for i := 0; i < bt.N; i++ {
			src := bt.x[(min(i+1, bt.N-1)*bt.B+s)*FramePixels:][:FramePixels]
			copy(bt.y[(i*bt.B+s)*FramePixels:], src)
		}
		if bt.turn != nil {
			for i, r := range bt.model.frameTurns(v, bt.N) {
				bt.turn[i*bt.B+s] = r
			}
		}
	}
	return nil
}

// frameTurns is FrameTurns of a video of n 64×64 frames, computed once per
// content: the recipe shows every training video once an epoch.
// For pose, turns[0] is the first frame's PoseAngle: the turn of the
// first frame from the canonical pose, which t_0 must equal.
func (m *Model) frameTurns(video []uint8, n int) []float64 {
	k := maphash.Bytes(turnSeed, video)
	if r, ok := m.turns[k]; ok {
		return r
	}
	r := FrameTurns(video, n, ImageSize, ImageSize)
	if m.Opts.Variant == VariantPose {
		r[0] = PoseAngle(video[:FramePixels], ImageSize, ImageSize)
	}
	m.turns[k] = r
	return r
}

var turnSeed = maphash.MakeSeed()

// Run evaluates the loaded batch; after a training graph's run every
// parameter's Grad holds d loss / d parameter.
func (bt *Batch) Run() error {
	if err := bt.Machine.Run(); err != nil {
		return fmt.Errorf("seqvideo: %s: %w", bt.model.Opts.Model, err)
	}
	for i, p := range bt.Params {
		copy(p.Grad, bt.Machine.Grad(i))
	}
	return nil
}

// InferredTimes are the times t_0 … t_{N−1} of every video after a run:
// out[s][i]. Index models give 0 … N−1 (the reference's arange).
func (bt *Batch) InferredTimes() [][]float64 {
	out := make([][]float64, bt.B)
	for s := range out {
		out[s] = make([]float64, bt.N)
		for i := range out[s] {
			out[s][i] = float64(i)
		}
	}
	if bt.Gaps == nil {
		return out
	}
	g := autodiff.Value(bt.Gaps)
	for s := range out {
		t := 0.0
		for i := range out[s] {
			t += g[i*bt.B+s]
			out[s][i] = t
		}
	}
	return out
}

// NextFrameMSE is the mean squared error of the N−1 next-frame predictions
// alone (without the reconstruction of the last frame that the reference's
// MSE includes) after a run.
func (bt *Batch) NextFrameMSE() float64 {
	pred := autodiff.Value(bt.Pred)
	k := (bt.N - 1) * bt.B * FramePixels
	s := 0.0
	for j, p := range pred[:k] {
		d := p - bt.y[j]
		s += d * d
	}
	return s / float64(k)
}

// Predicted is video s's N decoded frames after a run (frame i predicts
// frame min(i+1, N−1) of the input), values in (−1, 1).
func (bt *Batch) Predicted(s int) [][]float64 {
	pred := autodiff.Value(bt.Pred)
	out := make([][]float64, bt.N)
	for i := range out {
		out[i] = append([]float64(nil), pred[(i*bt.B+s)*FramePixels:][:FramePixels]...)
	}
	return out
}
