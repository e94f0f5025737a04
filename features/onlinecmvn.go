package features

import (
	"flag"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// OnlineCmvnOptions are Kaldi's OnlineCmvnOptions (the --cmvn-config of
// online decoding and apply-cmvn-online), with Kaldi's names and defaults.
type OnlineCmvnOptions struct {
	CmnWindow     int    // --cmn-window: frames of sliding context for cepstral mean normalization
	SpeakerFrames int    // --speaker-frames: frames of previous utterances of this speaker to use
	GlobalFrames  int    // --global-frames: frames of the global stats to use for a speaker's first utterance
	NormMeans     bool   // --norm-means
	NormVars      bool   // --norm-vars
	SkipDims      string // --skip-dims: colon-separated dimensions left unnormalised
}

// DefaultOnlineCmvnOptions are Kaldi's defaults: a 600-frame window, 600
// frames of speaker stats, 200 of global stats, means only.
func DefaultOnlineCmvnOptions() OnlineCmvnOptions {
	return OnlineCmvnOptions{CmnWindow: 600, SpeakerFrames: 600, GlobalFrames: 200, NormMeans: true}
}

// Register adds the options with Kaldi's names and help texts.
func (o *OnlineCmvnOptions) Register(fs *flag.FlagSet) {
	fs.IntVar(&o.CmnWindow, "cmn-window", o.CmnWindow, "Number of frames of sliding context for cepstral mean normalization.")
	fs.IntVar(&o.GlobalFrames, "global-frames", o.GlobalFrames, "Number of frames of global-average cepstral mean normalization stats to use for first utterance of a speaker")
	fs.IntVar(&o.SpeakerFrames, "speaker-frames", o.SpeakerFrames, "Number of frames of previous utterance(s) from this speaker to use in cepstral mean normalization")
	fs.BoolVar(&o.NormVars, "norm-vars", o.NormVars, "If true, do cepstral variance normalization in addition to cepstral mean normalization ")
	fs.BoolVar(&o.NormMeans, "norm-means", o.NormMeans, "If true, do mean normalization (note: you cannot normalize the variance but not the mean)")
	fs.StringVar(&o.SkipDims, "skip-dims", o.SkipDims, "Dimensions to skip normalization of (colon-separated list of integers)")
}

// Validate is Kaldi's OnlineCmvnOptions::Check, plus the option errors
// Kaldi reports when it parses them.
func (o OnlineCmvnOptions) Validate() error {
	if o.CmnWindow < 1 || o.SpeakerFrames < 0 || o.GlobalFrames < 0 ||
		o.SpeakerFrames > o.CmnWindow || o.GlobalFrames > o.SpeakerFrames {
		return fmt.Errorf("%w: online CMVN needs 0 <= --global-frames (%d) <= --speaker-frames (%d) <= --cmn-window (%d), --cmn-window >= 1",
			ErrOptions, o.GlobalFrames, o.SpeakerFrames, o.CmnWindow)
	}
	if o.NormVars && !o.NormMeans {
		return fmt.Errorf("%w: you cannot normalize the variance but not the mean (--norm-vars=true --norm-means=false)", ErrOptions)
	}
	_, err := o.skipDims(-1)
	return err
}

// skipDims parses --skip-dims; with dim ≥ 0 it also checks the range.
func (o OnlineCmvnOptions) skipDims(dim int) ([]int, error) {
	if o.SkipDims == "" {
		return nil, nil
	}
	var out []int
	for _, f := range strings.Split(o.SkipDims, ":") {
		d, err := strconv.Atoi(f)
		if err != nil || d < 0 || (dim >= 0 && d >= dim) {
			return nil, fmt.Errorf("%w: Bad --skip-dims option %q (should be colon-separated list of integers in [0, dim))", ErrOptions, o.SkipDims)
		}
		out = append(out, d)
	}
	return out, nil
}

// OnlineCmvnState is Kaldi's OnlineCmvnState: what online CMVN carries from
// one utterance to the next. Both are CMVN stats, 2×(dim+1) row-major
// (row 0: Σx and the count, row 1: Σx²): Speaker sums every frame of the
// speaker's earlier utterances (nil before the first), Global is the prior
// for the frames the speaker's own data cannot fill (e.g. matrix-sum of
// compute-cmvn-stats over the training data: Kaldi's --global-cmvn-stats).
type OnlineCmvnState struct {
	Speaker []float64
	Global  []float64
}

// NewOnlineCmvnState starts a speaker with the global stats (2 rows of
// dim+1 values).
func NewOnlineCmvnState(global []float64, dim int) (OnlineCmvnState, error) {
	if len(global) != 2*(dim+1) {
		return OnlineCmvnState{}, fmt.Errorf("%w: global CMVN stats have %d values, want 2×%d for features of dimension %d", ErrCmvn, len(global), dim+1, dim)
	}
	if !(global[dim] > 0) {
		return OnlineCmvnState{}, fmt.Errorf("%w: global CMVN stats have count %v, want > 0", ErrCmvn, global[dim])
	}
	return OnlineCmvnState{Global: slices.Clone(global)}, nil
}

// OnlineCmvn is Kaldi's OnlineCmvn for one utterance: frame t is normalised
// with the stats of frames max(0, t−cmn-window+1) … t, topped up to
// cmn-window frames with up to speaker-frames frames of the speaker's
// earlier utterances (scaled to that count) and then up to global-frames
// frames of the global stats — so the first frames of a speaker's first
// utterance use mostly the global stats. Frames go through Process in
// order, so the sliding sums are Kaldi's: each frame is added (in double,
// its square in double) and the one leaving the window subtracted, in
// Kaldi's order, which Kaldi's caches reproduce whatever order its frames
// are asked for in. State gives the state for the speaker's next utterance.
type OnlineCmvn struct {
	opts   OnlineCmvnOptions
	dim    int
	skip   []int
	orig   OnlineCmvnState
	window []float32 // the last cmn-window raw frames, a ring indexed by frame % cmn-window
	stats  []float64 // running stats of the window (row 1 only with norm-vars)
	temp   []float64
	spk    []float64 // orig.Speaker plus every frame so far (GetState's sums)
	frames int
}

// NewOnlineCmvn starts online CMVN of features of dimension dim from st
// (global stats required, as Kaldi requires them).
func NewOnlineCmvn(o OnlineCmvnOptions, st OnlineCmvnState, dim int) (*OnlineCmvn, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	skip, err := o.skipDims(dim)
	if err != nil {
		return nil, err
	}
	if _, err := NewOnlineCmvnState(st.Global, dim); err != nil {
		return nil, err
	}
	if st.Speaker != nil && len(st.Speaker) != 2*(dim+1) {
		return nil, fmt.Errorf("%w: speaker CMVN stats have %d values, want 2×%d", ErrCmvn, len(st.Speaker), dim+1)
	}
	c := &OnlineCmvn{opts: o, dim: dim, skip: skip, orig: st,
		window: make([]float32, o.CmnWindow*dim),
		stats:  NewCmvnStats(dim), temp: NewCmvnStats(dim), spk: NewCmvnStats(dim)}
	if st.Speaker != nil {
		copy(c.spk, st.Speaker)
	}
	return c, nil
}

// NumFrames is the number of frames processed.
func (c *OnlineCmvn) NumFrames() int { return c.frames }

// Process normalises the next rows frames of feats (rows × dim) in place.
func (c *OnlineCmvn) Process(feats []float32, rows int) error {
	dim := c.dim
	if len(feats) < rows*dim {
		return fmt.Errorf("%w: %d values for %d frames of dimension %d", ErrCmvn, len(feats), rows, dim)
	}
	w := c.opts.CmnWindow
	for r := 0; r < rows; r++ {
		x := feats[r*dim : (r+1)*dim]
		c.accumulate(x)
		// The sliding window: frame t in, frame t − cmn-window out.
		slot := c.window[(c.frames%w)*dim : (c.frames%w+1)*dim]
		if c.frames >= w {
			c.add(c.stats, slot, -1, c.opts.NormVars)
		}
		c.add(c.stats, x, 1, c.opts.NormVars)
		copy(slot, x)
		c.frames++
		copy(c.temp, c.stats)
		c.smooth(c.temp)
		for _, d := range c.skip { // FakeStatsForSomeDims: mean 0, variance 1
			c.temp[d] = 0
			c.temp[dim+1+d] = c.temp[dim]
		}
		if !c.opts.NormMeans {
			continue
		}
		if _, err := ApplyCmvn(c.temp, 2, c.opts.NormVars, x, 1, dim); err != nil {
			return fmt.Errorf("online CMVN, frame %d: %w", c.frames-1, err)
		}
	}
	return nil
}

// add is Kaldi's stats update for one frame with weight ±1: the frame in
// double into row 0, its square in double into row 1 (when squares), the
// count.
func (c *OnlineCmvn) add(st []float64, x []float32, sign float64, squares bool) {
	dim := c.dim
	for d, v := range x {
		st[d] += sign * float64(v)
	}
	if squares {
		sq := st[dim+1 : 2*dim+1]
		for d, v := range x {
			f := float64(v)
			sq[d] += sign * f * f
		}
	}
	st[dim] += sign
}

// accumulate adds a raw frame to the speaker sums, as GetState does (count
// first, then the frame and its square).
func (c *OnlineCmvn) accumulate(x []float32) {
	dim := c.dim
	c.spk[dim]++
	for d, v := range x {
		c.spk[d] += float64(v)
	}
	sq := c.spk[dim+1 : 2*dim+1]
	for d, v := range x {
		f := float64(v)
		sq[d] += f * f
	}
}

// smooth is Kaldi's SmoothOnlineCmvnStats: top the window's count up to
// cmn-window frames from the speaker's earlier stats, then from the global
// stats (only row 0 without norm-vars, as Kaldi does for speed; row 1 is
// then unused).
func (c *OnlineCmvn) smooth(st []float64) {
	dim, o := c.dim, c.opts
	cols := 2 * (dim + 1)
	if !o.NormVars && c.orig.Speaker != nil {
		cols = dim + 1
	}
	win := float64(o.CmnWindow)
	cur := st[dim]
	if cur >= win {
		return
	}
	if spk := c.orig.Speaker; spk != nil {
		fromSpk, spkCount := win-cur, spk[dim]
		fromSpk = min(fromSpk, float64(o.SpeakerFrames), spkCount)
		if fromSpk > 0 {
			a := fromSpk / spkCount
			for i := 0; i < cols; i++ {
				st[i] += a * spk[i]
			}
		}
		cur = st[dim]
	}
	if cur >= win {
		return
	}
	g := c.orig.Global
	fromGlobal := min(win-cur, float64(o.GlobalFrames))
	if fromGlobal > 0 {
		a := fromGlobal / g[dim]
		for i := 0; i < cols; i++ {
			st[i] += a * g[i]
		}
	}
}

// State is Kaldi's GetState after the last frame processed: the speaker
// stats grown by every frame of this utterance (unnormalised), for the
// speaker's next utterance.
func (c *OnlineCmvn) State() OnlineCmvnState {
	return OnlineCmvnState{Speaker: slices.Clone(c.spk), Global: slices.Clone(c.orig.Global)}
}
