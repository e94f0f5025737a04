package online

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/features"
)

// FeatureConfig is what Kaldi's OnlineNnet2FeaturePipelineConfig holds for
// our models: the feature type and its options, online CMVN and its global
// stats. The splicing comes from the model file.
type FeatureConfig struct {
	FeatureType     string // --feature-type: fbank or mfcc
	FbankConfig     string // --fbank-config
	MfccConfig      string // --mfcc-config
	CmvnConfig      string // --cmvn-config
	GlobalCmvnStats string // --global-cmvn-stats: rxfilename of the global CMVN stats; online CMVN is on when given
	Cmvn            features.OnlineCmvnOptions
}

// DefaultFeatureConfig is Kaldi's defaults (feature type mfcc, Kaldi's
// OnlineCmvnOptions).
func DefaultFeatureConfig() FeatureConfig {
	return FeatureConfig{FeatureType: "mfcc", Cmvn: features.DefaultOnlineCmvnOptions()}
}

// Register adds the options with the names of Kaldi's online2 binaries,
// and OnlineCmvnOptions directly (--cmn-window, --norm-vars, …; Kaldi puts
// them in the file given to --cmvn-config, which is read too).
func (c *FeatureConfig) Register(fs *flag.FlagSet) {
	fs.StringVar(&c.FeatureType, "feature-type", c.FeatureType, "Base feature type [mfcc, fbank]")
	fs.StringVar(&c.FbankConfig, "fbank-config", c.FbankConfig, "Configuration file for filterbank features (e.g. conf/fbank.conf)")
	fs.StringVar(&c.MfccConfig, "mfcc-config", c.MfccConfig, "Configuration file for MFCC features (e.g. conf/mfcc.conf)")
	fs.StringVar(&c.CmvnConfig, "cmvn-config", c.CmvnConfig, "Configuration file for online cmvn features (e.g. conf/online_cmvn.conf); options given on the command line win")
	fs.StringVar(&c.GlobalCmvnStats, "global-cmvn-stats", c.GlobalCmvnStats, "(Extended) filename for global cmvn stats, used in online cmvn (e.g. matrix-sum of compute-cmvn-stats over the training data); online CMVN is applied when this is given")
	c.Cmvn.Register(fs)
}

// FeatureInfo is Kaldi's OnlineNnet2FeaturePipelineInfo: what every
// utterance's pipeline shares, checked against the model's pipeline.
type FeatureInfo struct {
	Computer    features.Computer
	Cmvn        features.OnlineCmvnOptions
	GlobalCmvn  []float64 // 2×(dim+1) stats; nil: no CMVN
	SpliceLeft  int
	SpliceRight int
}

// NewFeatureInfo checks a computer and the online CMVN settings against the
// model's pipeline p: the raw dimension must be the model's; a model
// trained with CMVN needs online CMVN (its own CMVN read whole utterances
// or speakers, which an online decoder cannot); warnings name what differs
// from the training pipeline.
func NewFeatureInfo(c features.Computer, cmvn features.OnlineCmvnOptions, global []float64, p am.Pipeline) (*FeatureInfo, []string, error) {
	if err := p.Validate(); err != nil {
		return nil, nil, err
	}
	dim := c.Dim()
	if dim != p.RawDim {
		what := ""
		if p.Features != "" {
			what = fmt.Sprintf(" (it was trained on %q)", p.Features)
		}
		return nil, nil, fmt.Errorf("online: the features have dimension %d, the model's pipeline wants %d%s: check --feature-type and --fbank-config/--mfcc-config", dim, p.RawDim, what)
	}
	var warns []string
	if global != nil {
		if err := cmvn.Validate(); err != nil {
			return nil, nil, err
		}
		if _, err := features.NewOnlineCmvnState(global, dim); err != nil {
			return nil, nil, fmt.Errorf("online: --global-cmvn-stats: %w", err)
		}
		switch {
		case p.CMVN == am.CMVNNone:
			// Trained on features without CMVN, or normalised by
			// apply-cmvn-online before training: nothing to compare.
		case p.NormMeans != cmvn.NormMeans || p.NormVars != cmvn.NormVars:
			warns = append(warns, fmt.Sprintf("the model was trained with %s CMVN (means %v, variances %v), online CMVN normalises means %v, variances %v", p.CMVN, p.NormMeans, p.NormVars, cmvn.NormMeans, cmvn.NormVars))
		default:
			warns = append(warns, fmt.Sprintf("the model was trained with %s CMVN, decoded with online CMVN (a sliding window from the global stats): train on apply-cmvn-online features for a causal system", p.CMVN))
		}
	} else if p.CMVN != am.CMVNNone && p.NormMeans {
		return nil, nil, fmt.Errorf("online: the model's pipeline applies %s CMVN, which needs the whole utterance or speaker; give --global-cmvn-stats for online CMVN (Kaldi's OnlineCmvn)", p.CMVN)
	}
	return &FeatureInfo{Computer: c, Cmvn: cmvn, GlobalCmvn: global, SpliceLeft: p.SpliceLeft, SpliceRight: p.SpliceRight}, warns, nil
}

// Dim is the spliced frame's dimension, the model's input.
func (fi *FeatureInfo) Dim() int { return fi.Computer.Dim() * (1 + fi.SpliceLeft + fi.SpliceRight) }

// FrameShift is the frame shift in seconds.
func (fi *FeatureInfo) FrameShift() float64 {
	o := fi.Computer.FrameOptions()
	return o.FrameShiftMs / 1000
}

// NewCmvnState is a new speaker's CMVN state: the global stats only (nil
// without online CMVN).
func (fi *FeatureInfo) NewCmvnState() *features.OnlineCmvnState {
	if fi.GlobalCmvn == nil {
		return nil
	}
	st, _ := features.NewOnlineCmvnState(fi.GlobalCmvn, fi.Computer.Dim())
	return &st
}

// FeaturePipeline is one utterance's Kaldi OnlineNnet2FeaturePipeline for
// our models: base features as samples arrive (features.Online), online
// CMVN (features.OnlineCmvn) and splicing as Kaldi's OnlineSpliceFrames
// (frames beyond the ends repeat the first and last frame, as
// splice-feats), giving the model's input frames in order. A spliced frame
// is ready once its right context is, or at the end.
type FeaturePipeline struct {
	fi    *FeatureInfo
	base  *features.Online
	cmvn  *features.OnlineCmvn
	dim   int       // base dimension
	norm  []float32 // normalised base frames from index start on
	start int       // index of norm's first frame
	total int       // normalised frames so far
	next  int       // next spliced frame to hand out
	done  bool      // InputFinished was called
	raw   []float32
	out   []float32
}

// NewFeaturePipeline starts an utterance: key seeds the dither noise, st
// is the speaker's CMVN state (nil without online CMVN).
func (fi *FeatureInfo) NewFeaturePipeline(key string, st *features.OnlineCmvnState) (*FeaturePipeline, error) {
	base, err := features.NewOnline(fi.Computer.Clone(), key, 1)
	if err != nil {
		return nil, err
	}
	p := &FeaturePipeline{fi: fi, base: base, dim: fi.Computer.Dim()}
	if fi.GlobalCmvn != nil {
		if st == nil {
			st = fi.NewCmvnState()
		}
		if p.cmvn, err = features.NewOnlineCmvn(fi.Cmvn, *st, p.dim); err != nil {
			return nil, err
		}
	}
	return p, nil
}

// AcceptWaveform adds samples (at the feature options' sample frequency).
func (p *FeaturePipeline) AcceptWaveform(sampFreq float64, samples []float32) error {
	if err := p.base.AcceptWaveform(sampFreq, samples); err != nil {
		return err
	}
	return p.pull()
}

// InputFinished says the utterance's audio has ended.
func (p *FeaturePipeline) InputFinished() error {
	if err := p.base.InputFinished(); err != nil {
		return err
	}
	p.done = true
	return p.pull()
}

// pull normalises the base frames computed since the last call.
func (p *FeaturePipeline) pull() error {
	var n int
	p.raw, n = p.base.Take(p.raw)
	if n == 0 {
		return nil
	}
	if p.cmvn != nil {
		if err := p.cmvn.Process(p.raw, n); err != nil {
			return err
		}
	}
	p.norm = append(p.norm, p.raw[:n*p.dim]...)
	p.total += n
	return nil
}

// NumBaseFrames is the number of base feature frames so far.
func (p *FeaturePipeline) NumBaseFrames() int { return p.total }

// Take returns the spliced frames that are ready and not yet taken (rows ×
// the model's input dimension, valid until the next call) and their number.
func (p *FeaturePipeline) Take() ([]float32, int) {
	l, r, d := p.fi.SpliceLeft, p.fi.SpliceRight, p.dim
	last := p.total - 1 - r // the last frame whose right context is in
	if p.done {
		last = p.total - 1
	}
	n := max(0, last-p.next+1)
	w := d * (1 + l + r)
	p.out = p.out[:0]
	for t := p.next; t <= last; t++ {
		for t2 := t - l; t2 <= t+r; t2++ {
			src := min(max(t2, 0), p.total-1) - p.start
			p.out = append(p.out, p.norm[src*d:(src+1)*d]...)
		}
	}
	p.next += n
	// Keep the frames the next spliced frame reads (from frame next−l).
	if drop := max(0, p.next-l) - p.start; drop > 0 {
		p.norm = append(p.norm[:0], p.norm[drop*d:]...)
		p.start += drop
	}
	return p.out[:n*w], n
}

// CmvnState is the speaker's CMVN state after this utterance (Kaldi's
// GetCmvnState), or nil without online CMVN.
func (p *FeaturePipeline) CmvnState() *features.OnlineCmvnState {
	if p.cmvn == nil {
		return nil
	}
	st := p.cmvn.State()
	return &st
}
