package conv

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/graph"
)

// BatchNorm is the state of one BatchNorm2d layer, PyTorch's: the mode and
// the running statistics. The learnable scale and shift (gamma, beta) are
// ordinary parameters given to BatchNorm2D as nodes.
//
// In training mode every Forward normalises with the batch's statistics
// (per channel over N, H, W; the biased variance) and updates the running
// statistics, RunningMean ← (1 − Momentum)·RunningMean + Momentum·mean and
// RunningVar likewise with the unbiased variance (× M/(M − 1), M = N·H·W).
// The update is a side effect of the graph's forward pass: each Machine.Run
// of a training graph moves them once, so runs that must not (gradient
// checks, a validation pass through the training graph) save them with
// Stats and put them back with SetStats. In evaluation mode Forward uses the
// running statistics and changes nothing. Several graphs (a training and an
// evaluation graph of one model) may share a BatchNorm; runs that share one
// must not run at the same time.
type BatchNorm struct {
	Channels int
	Eps      float64 // added to the variance; PyTorch's 1e-5
	Momentum float64 // PyTorch's 0.1
	Training bool
	// RunningMean and RunningVar start at 0 and 1.
	RunningMean, RunningVar []float64
	// NumBatchesTracked counts training Forwards, as PyTorch's
	// num_batches_tracked (kept for its state_dict; Momentum is never nil
	// here, so the count does not change the update).
	NumBatchesTracked int64
}

// NewBatchNorm returns PyTorch's BatchNorm2d(channels) state: eps 1e-5,
// momentum 0.1, training mode, running mean 0 and variance 1.
func NewBatchNorm(channels int) *BatchNorm {
	v := make([]float64, channels)
	for i := range v {
		v[i] = 1
	}
	return &BatchNorm{Channels: channels, Eps: 1e-5, Momentum: 0.1, Training: true,
		RunningMean: make([]float64, channels), RunningVar: v}
}

// Stats returns copies of the running statistics and the batch count.
func (b *BatchNorm) Stats() (mean, variance []float64, batches int64) {
	return append([]float64(nil), b.RunningMean...), append([]float64(nil), b.RunningVar...), b.NumBatchesTracked
}

// SetStats replaces the running statistics (copies), e.g. with those read
// from a model file.
func (b *BatchNorm) SetStats(mean, variance []float64, batches int64) error {
	if len(mean) != b.Channels || len(variance) != b.Channels {
		return fmt.Errorf("batchnorm: %d means and %d variances for %d channels", len(mean), len(variance), b.Channels)
	}
	for c, v := range variance {
		if !(v >= 0) || math.IsInf(v, 0) || math.IsNaN(mean[c]) || math.IsInf(mean[c], 0) {
			return fmt.Errorf("batchnorm: channel %d: running mean %g, variance %g", c, mean[c], v)
		}
	}
	b.RunningMean = append(b.RunningMean[:0], mean...)
	b.RunningVar = append(b.RunningVar[:0], variance...)
	b.NumBatchesTracked = batches
	return nil
}

// BatchNorm2D normalises the batch x (N × Channels·H·W, channel-major) per
// channel and scales and shifts it, y = gamma·x̂ + beta, with gamma and beta
// 1 × Channels nodes and the statistics and mode of bn (see BatchNorm).
func BatchNorm2D(g *graph.Graph, x, gamma, beta *graph.Node, bn *BatchNorm) *graph.Node {
	return g.Fused("batchnorm2d", &batchNorm2d{bn: bn}, x, gamma, beta)
}

// batchNorm2d keeps x̂ and 1/σ per channel of the latest Forward and whether
// it ran in training mode, for Backward:
//
//	training:   dx = γ/σ · (dy − mean(dy) − x̂·mean(dy·x̂))
//	evaluation: dx = γ/σ · dy
//
// with dγ = Σ dy·x̂ and dβ = Σ dy over N, H, W in both.
type batchNorm2d struct {
	bn       *BatchNorm
	n, p     int // images, positions per channel
	xhat     []float64
	invStd   []float64
	training bool
}

func (k *batchNorm2d) Shape(in [][2]int) (int, int, error) {
	c := k.bn.Channels
	if c <= 0 || in[0][1]%c != 0 {
		return 0, 0, fmt.Errorf("batchnorm2d: %d columns are not %d channels", in[0][1], c)
	}
	if len(k.bn.RunningMean) != c || len(k.bn.RunningVar) != c {
		return 0, 0, fmt.Errorf("batchnorm2d: running statistics of %d and %d channels, want %d", len(k.bn.RunningMean), len(k.bn.RunningVar), c)
	}
	for i, name := range []string{"gamma", "beta"} {
		if in[i+1] != [2]int{1, c} {
			return 0, 0, fmt.Errorf("batchnorm2d: %s is %d×%d, want 1×%d", name, in[i+1][0], in[i+1][1], c)
		}
	}
	k.n, k.p = in[0][0], in[0][1]/c
	return in[0][0], in[0][1], nil
}

func (k *batchNorm2d) Forward(out []float64, in [][]float64) {
	x, gamma, beta := in[0], in[1], in[2]
	bn, c, n, p := k.bn, k.bn.Channels, k.n, k.p
	k.xhat = grow(k.xhat, len(x))
	k.invStd = grow(k.invStd, c)
	k.training = bn.Training
	m := float64(n * p)
	for ci := 0; ci < c; ci++ {
		mean, variance := bn.RunningMean[ci], bn.RunningVar[ci]
		if k.training {
			s := 0.0
			for i := 0; i < n; i++ {
				for _, v := range x[(i*c+ci)*p : (i*c+ci+1)*p] {
					s += v
				}
			}
			mean = s / m
			ss := 0.0
			for i := 0; i < n; i++ {
				for _, v := range x[(i*c+ci)*p : (i*c+ci+1)*p] {
					ss += (v - mean) * (v - mean)
				}
			}
			variance = ss / m
			unbiased := variance
			if m > 1 {
				unbiased = ss / (m - 1)
			}
			bn.RunningMean[ci] = (1-bn.Momentum)*bn.RunningMean[ci] + bn.Momentum*mean
			bn.RunningVar[ci] = (1-bn.Momentum)*bn.RunningVar[ci] + bn.Momentum*unbiased
		}
		inv := 1 / math.Sqrt(variance+bn.Eps)
		k.invStd[ci] = inv
		gv, bv := gamma[ci], beta[ci]
		for i := 0; i < n; i++ {
			o := (i*c + ci) * p
			for j, v := range x[o : o+p] {
				xh := (v - mean) * inv
				k.xhat[o+j] = xh
				out[o+j] = gv*xh + bv
			}
		}
	}
	if k.training {
		bn.NumBatchesTracked++
	}
}

func (k *batchNorm2d) Backward(din [][]float64, dout []float64, in [][]float64) {
	gamma := in[1]
	dx, dgamma, dbeta := din[0], din[1], din[2]
	c, n, p := k.bn.Channels, k.n, k.p
	m := float64(n * p)
	for ci := 0; ci < c; ci++ {
		sdy, sdyx := 0.0, 0.0
		for i := 0; i < n; i++ {
			o := (i*c + ci) * p
			for j, d := range dout[o : o+p] {
				sdy += d
				sdyx += d * k.xhat[o+j]
			}
		}
		dgamma[ci] += sdyx
		dbeta[ci] += sdy
		scale := gamma[ci] * k.invStd[ci]
		mdy, mdyx := sdy/m, sdyx/m
		if !k.training {
			mdy, mdyx = 0, 0
		}
		for i := 0; i < n; i++ {
			o := (i*c + ci) * p
			for j, d := range dout[o : o+p] {
				dx[o+j] += scale * (d - mdy - k.xhat[o+j]*mdyx)
			}
		}
	}
}
