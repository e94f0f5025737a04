package strodehead

import (
	"fmt"
	"math"

	"github.com/strode-asr/strode/acoustic/autodiff"
	"github.com/strode-asr/strode/acoustic/nn"
)

// The look-ahead variant (VariantLookahead, DESIGN.md §3 "Head variants")
// makes t̃ a per-frame latency: on a causal encoder, the classifier of frame
// i reads the encoder at the continuous time
//
//	s_i = i + τ_i,  τ_i = min(t̃_i, L),
//
// ê_i = e(s_i), linearly interpolated between the two frames around s_i
// (the utterance's last frame beyond its end), so the loss is
// differentiable in t̃: with k = ⌊s_i⌋ and α = s_i − k,
//
//	ê_i = (1 − α)·e_k + α·e_{k+1},  ∂ê_i/∂t̃_i = e_{k+1} − e_k  (0 ≤ t̃_i < L, s_i < T − 1).
//
// logits = W·ê_i + W_h·h̃_i + b (the paper's form with ê in e's place; h̃ is
// still solved from h(0) = P·e_i, so e_i reaches the decision through h̃),
// and the loss adds w_latency·mean_i t̃_i, the price of a frame of
// look-ahead in nats per frame. Frame i's output can be emitted once
// ⌈τ_i⌉ frames after it have arrived (LookaheadFrames).

// DefaultMaxLookahead is --max-lookahead's default: L = 8 frames (80 ms at
// a 10 ms shift), the largest fixed target delay the latency curve compares.
const DefaultMaxLookahead = 8

// DefaultWLatency is --w-latency's default (nats of cross-entropy per frame
// of mean t̃): a frame of look-ahead has to buy 0.02 nats per frame.
const DefaultWLatency = 0.02

// Lookahead tells whether the output layer reads the encoder ahead of the
// frame (VariantLookahead).
func (c Config) Lookahead() bool { return c.Variant == VariantLookahead }

// LookaheadFrames is how many frames after frame i its output waits for
// with boundary tt: ⌈min(tt, L)⌉ (0 for tt ≤ 0). It is 0 for the other
// variants, which read e_i.
func (c Config) LookaheadFrames(tt float64) int {
	if !c.Lookahead() || !(tt > 0) {
		return 0
	}
	return int(math.Ceil(math.Min(tt, float64(c.MaxLookahead))))
}

// validLookahead checks the look-ahead options of VariantLookahead.
func (c Config) validLookahead() error {
	if !c.Lookahead() {
		return nil
	}
	if c.MaxLookahead < 1 {
		return fmt.Errorf("am: --max-lookahead=%d must be ≥ 1 frame with --head-variant=lookahead", c.MaxLookahead)
	}
	if c.WLatency < 0 || math.IsNaN(c.WLatency) || math.IsInf(c.WLatency, 0) {
		return fmt.Errorf("am: --w-latency=%g must be a finite weight ≥ 0", c.WLatency)
	}
	return nil
}

// ReadAhead is ê = e(i + min(t̃_i, L)) for every row of e (N×H, time-major:
// row t·batch + b is frame t of utterance b) with boundaries tt (N×1); mask
// (N×1, 1 on the real frames, which start every column) gives each
// utterance's length. Padded rows are 0. One float64 fused node.
func (hd *Head) ReadAhead(net *nn.Net, e, tt, mask *autodiff.Node, batch int) *autodiff.Node {
	return net.Fused("read-ahead", &readAhead{l: float64(hd.Cfg.MaxLookahead), batch: batch}, e, tt, mask)
}

// readAhead is ReadAhead's kernel. Inputs e (N×H), t̃ (N×1), mask (N×1).
type readAhead struct {
	l     float64
	batch int
	n, h  int
}

func (k *readAhead) Shape(in [][2]int) (int, int, error) {
	if len(in) != 3 || in[1] != [2]int{in[0][0], 1} || in[2] != in[1] || k.batch < 1 || in[0][0]%k.batch != 0 {
		return 0, 0, fmt.Errorf("strodehead: read-ahead of shapes %v in batches of %d, want N×H, N×1, N×1 with N a multiple of the batch", in, k.batch)
	}
	k.n, k.h = in[0][0], in[0][1]
	return k.n, k.h, nil
}

// length is utterance b's frame count: its leading rows with mask ≠ 0.
func (k *readAhead) length(mask []float64, b int) int {
	t := 0
	for t*k.batch+b < k.n && mask[t*k.batch+b] != 0 {
		t++
	}
	return t
}

// each calls f for every real row r with the rows lo and hi of e around
// its read-ahead time, the weight a of hi, and whether t̃ moves it (the
// time is inside both the clamp to L and the utterance).
func (k *readAhead) each(tt, mask []float64, f func(r, lo, hi int, a float64, moves bool)) {
	for b := 0; b < k.batch; b++ {
		last := k.length(mask, b) - 1
		for t := 0; t <= last; t++ {
			r := t*k.batch + b
			tau := math.Min(math.Max(tt[r], 0), k.l)
			s := float64(t) + tau
			if s >= float64(last) {
				f(r, last*k.batch+b, last*k.batch+b, 0, false)
				continue
			}
			i := int(s)
			f(r, i*k.batch+b, (i+1)*k.batch+b, s-float64(i), tt[r] >= 0 && tt[r] < k.l)
		}
	}
}

func (k *readAhead) Forward(out []float64, in [][]float64) {
	e, h := in[0], k.h
	k.each(in[1], in[2], func(r, lo, hi int, a float64, _ bool) {
		o, x, y := out[r*h:(r+1)*h], e[lo*h:(lo+1)*h], e[hi*h:(hi+1)*h]
		for j := range o {
			o[j] = (1-a)*x[j] + a*y[j]
		}
	})
}

func (k *readAhead) Backward(din [][]float64, dout []float64, in [][]float64) {
	e, h := in[0], k.h
	de, dtt := din[0], din[1]
	k.each(in[1], in[2], func(r, lo, hi int, a float64, moves bool) {
		d := dout[r*h : (r+1)*h]
		dx, dy := de[lo*h:(lo+1)*h], de[hi*h:(hi+1)*h]
		for j, v := range d {
			dx[j] += (1 - a) * v
			dy[j] += a * v
		}
		if moves {
			x, y := e[lo*h:(lo+1)*h], e[hi*h:(hi+1)*h]
			g := 0.0
			for j, v := range d {
				g += v * (y[j] - x[j])
			}
			dtt[r] = g
		}
	})
}

// Latency is mean_i t̃_i over the real frames (maskw: 1/frames on each,
// 0 on padding), the look-ahead cost VariantLookahead weighs by w_latency.
// It is t̃ rather than min(t̃, L): beyond L the classifier's read no longer
// moves with t̃, and only this term pulls t̃ back. A fused node: the
// graph's element-wise product may write t̃'s buffer in place where it is
// t̃'s last use (an Eval graph), and t̃ is read after the run (Batch.Stats).
func (hd *Head) Latency(net *nn.Net, tt, maskw *autodiff.Node) *autodiff.Node {
	return net.Sum(net.Fused("latency", columnDot{}, tt, maskw)) // Sum: the 1×1 as a scalar
}

// columnDot is aᵀ·b for two N×1 columns, a 1×1 node.
type columnDot struct{}

func (columnDot) Shape(in [][2]int) (int, int, error) {
	if len(in) != 2 || in[0] != in[1] || in[0][1] != 1 {
		return 0, 0, fmt.Errorf("strodehead: column product of shapes %v, want two N×1", in)
	}
	return 1, 1, nil
}

func (columnDot) Forward(out []float64, in [][]float64) {
	for i, a := range in[0] {
		out[0] += a * in[1][i]
	}
}

func (columnDot) Backward(din [][]float64, dout []float64, in [][]float64) {
	for i := range in[0] {
		din[0][i] = dout[0] * in[1][i]
		din[1][i] = dout[0] * in[0][i]
	}
}
