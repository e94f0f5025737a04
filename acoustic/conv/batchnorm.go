package conv

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
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
func BatchNorm2D(g *autodiff.Graph, x, gamma, beta *autodiff.Node, bn *BatchNorm) *autodiff.Node {
	return g.Fused("batchnorm2d", &batchNorm2d{bn: bn, slope: 1}, x, gamma, beta)
}

// BatchNorm2DLeakyReLU is LeakyReLU(BatchNorm2D(x), slope) as one node
// (slope 0 is ReLU): the pairing of the DCGAN encoder (0.2) and decoder (0),
// with one output and one pass over memory less each way than the two ops.
func BatchNorm2DLeakyReLU(g *autodiff.Graph, x, gamma, beta *autodiff.Node, bn *BatchNorm, slope float64) *autodiff.Node {
	return g.Fused("batchnorm2d-leaky-relu", &batchNorm2d{bn: bn, slope: slope}, x, gamma, beta)
}

// batchNorm2d keeps the mean and 1/σ per channel of the latest Forward and
// whether it ran in training mode, for Backward, which recomputes
// x̂ = (x − mean)/σ rather than store it (one pass over memory less):
//
//	training:   dx = γ/σ · (dy − mean(dy) − x̂·mean(dy·x̂))
//	evaluation: dx = γ/σ · dy
//
// with dγ = Σ dy·x̂ and dβ = Σ dy over N, H, W in both. With an activation
// (slope ≠ 1) dy is first the activation's gradient at the recomputed
// pre-activation, dy·(1 or slope).
type batchNorm2d struct {
	bn           *BatchNorm
	slope        float64 // LeakyReLU's after the normalisation; 1: none
	n, p         int     // images, positions per channel
	mean, invStd []float64
	training     bool
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

// sum is Σ x with four partial sums, so that the adds do not wait on each
// other.
func sum(x []float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		s0 += x[i]
		s1 += x[i+1]
		s2 += x[i+2]
		s3 += x[i+3]
	}
	for ; i < len(x); i++ {
		s0 += x[i]
	}
	return (s0 + s1) + (s2 + s3)
}

// sumSqDev is Σ (x − m)², as sum.
func sumSqDev(x []float64, m float64) float64 {
	var s0, s1, s2, s3 float64
	i := 0
	for ; i+4 <= len(x); i += 4 {
		d0, d1, d2, d3 := x[i]-m, x[i+1]-m, x[i+2]-m, x[i+3]-m
		s0 += d0 * d0
		s1 += d1 * d1
		s2 += d2 * d2
		s3 += d3 * d3
	}
	for ; i < len(x); i++ {
		s0 += (x[i] - m) * (x[i] - m)
	}
	return (s0 + s1) + (s2 + s3)
}

func (k *batchNorm2d) Forward(out []float64, in [][]float64) {
	x, gamma, beta := in[0], in[1], in[2]
	bn, c, n, p := k.bn, k.bn.Channels, k.n, k.p
	k.mean = grow(k.mean, c)
	k.invStd = grow(k.invStd, c)
	k.training = bn.Training
	m := float64(n * p)
	for ci := 0; ci < c; ci++ {
		mean, variance := bn.RunningMean[ci], bn.RunningVar[ci]
		if k.training {
			s := 0.0
			for i := 0; i < n; i++ {
				s += sum(x[(i*c+ci)*p : (i*c+ci+1)*p])
			}
			mean = s / m
			ss := 0.0
			for i := 0; i < n; i++ {
				ss += sumSqDev(x[(i*c+ci)*p:(i*c+ci+1)*p], mean)
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
		k.mean[ci], k.invStd[ci] = mean, inv
		// y = γ·(x − mean)·inv + β = a·x + b
		a := gamma[ci] * inv
		b := beta[ci] - a*mean
		for i := 0; i < n; i++ {
			o := (i*c + ci) * p
			dst := out[o : o+p]
			if k.slope == 1 {
				for j, v := range x[o : o+p] {
					dst[j] = a*v + b
				}
				continue
			}
			for j, v := range x[o : o+p] {
				z := a*v + b
				dst[j] = z * negScale(z, k.slope)
			}
		}
	}
	if k.training {
		bn.NumBatchesTracked++
	}
}

func (k *batchNorm2d) Backward(din [][]float64, dout []float64, in [][]float64) {
	x, gamma, beta := in[0], in[1], in[2]
	dx, dgamma, dbeta := din[0], din[1], din[2]
	c, n, p := k.bn.Channels, k.n, k.p
	m := float64(n * p)
	for ci := 0; ci < c; ci++ {
		mean, inv := k.mean[ci], k.invStd[ci]
		scale := gamma[ci] * inv
		// the pre-activation z = a·x + b, as in Forward
		a, b := scale, beta[ci]-scale*mean
		// Σ dz and Σ dz·x̂ = inv·(Σ dz·x − mean·Σ dz)
		sdy, sdyx := 0.0, 0.0
		for i := 0; i < n; i++ {
			o := (i*c + ci) * p
			xs := x[o : o+p]
			if k.slope == 1 {
				for j, d := range dout[o : o+p] {
					sdy += d
					sdyx += d * xs[j]
				}
				continue
			}
			for j, d := range dout[o : o+p] {
				d *= negScale(a*xs[j]+b, k.slope)
				sdy += d
				sdyx += d * xs[j]
			}
		}
		sdyxh := inv * (sdyx - mean*sdy)
		dgamma[ci] += sdyxh
		dbeta[ci] += sdy
		mdy, mdyx := sdy/m, sdyxh/m
		if !k.training {
			mdy, mdyx = 0, 0
		}
		// dx = scale·(dz − mdy − x̂·mdyx), x̂ = (x − mean)·inv
		cx := scale * mdyx * inv
		c0 := -scale*mdy + cx*mean
		for i := 0; i < n; i++ {
			o := (i*c + ci) * p
			xs, dst := x[o:o+p], dx[o:o+p]
			if k.slope == 1 {
				for j, d := range dout[o : o+p] {
					dst[j] += scale*d - cx*xs[j] + c0
				}
				continue
			}
			for j, d := range dout[o : o+p] {
				v := xs[j]
				d *= negScale(a*v+b, k.slope)
				dst[j] += scale*d - cx*v + c0
			}
		}
	}
}
