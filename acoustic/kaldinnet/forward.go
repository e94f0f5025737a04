package kaldinnet

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/decoder/priors"
	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/kaldiio"
)

// ForwardOptions are nnet-forward's options plus the tables the model's
// feature pipeline may need.
type ForwardOptions struct {
	Output  am.OutputOptions
	Prior   priors.Options
	CMVN    string // --cmvn, when the pipeline applies CMVN from a table
	Utt2spk string // --utt2spk
	// LookaheadStats, when not "", is a file for the frames' look-ahead
	// (am.LookaheadStats: the look-ahead head's ⌈min(t̃, L)⌉ per frame, or
	// a fixed model's constant), which `strode latency-curve` reads.
	LookaheadStats string
	// Progress is called once per utterance written (nil: none).
	Progress func()
}

// Forward runs the model of f on every utterance of featRspec (raw features;
// the model's pipeline is applied) and writes the outputs to wspec as
// nnet-forward does. It returns the number of utterances done.
func Forward(f *am.File, o ForwardOptions, featRspec, wspec string, log func(string, ...any), kopts ...kaldiio.Option) (int, error) {
	if err := o.Output.Validate(); err != nil {
		return 0, err
	}
	pr, err := priors.Load(o.Prior)
	if err != nil {
		return 0, err
	}
	p := f.Model.Opts.NumPdfs
	if pr != nil {
		if len(pr.LogPriors) != p {
			return 0, fmt.Errorf("dataset: %s has %d counts, the model has %d outputs: %w", o.Prior.ClassFrameCounts, len(pr.LogPriors), p, priors.ErrDimension)
		}
		if pr.Floored > 0 {
			log("%d pdfs under --prior-floor=%g are banned", pr.Floored, o.Prior.PriorFloor)
		}
	}
	tr, err := NewTransformer(f.Pipeline, o.CMVN, o.Utt2spk)
	if err != nil {
		return 0, err
	}
	defer tr.Close()
	sr, err := kaldiio.OpenSequentialReader(featRspec, kaldiio.MatrixCodec, kopts...)
	if err != nil {
		return 0, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(wspec, kaldiio.MatrixCodec, kopts...)
	if err != nil {
		return 0, err
	}
	// The look-ahead head's latency is counted always (it is the model's
	// price); a fixed model's when the statistics are asked for.
	var look *am.LookaheadStats
	if o.LookaheadStats != "" || f.Model.Opts.HeadVariant == am.HeadLookahead {
		if look, err = am.NewLookaheadStats(f.Model.Opts, f.Pipeline); err != nil {
			return 0, fmt.Errorf("--lookahead-stats=%s: %w", o.LookaheadStats, err)
		}
	}
	fw := am.NewForwarder(f.Model)
	defer fw.Close()
	done := 0
	var out []float32
	for sr.Next() {
		key, m := sr.Key(), sr.Value()
		feats, err := tr.Apply(key, &m)
		if err != nil {
			tw.Close()
			return done, err
		}
		g, err := fw.Run(&am.Utterance{Key: key, Rows: m.Rows, Feats: feats})
		if err != nil {
			tw.Close()
			return done, err
		}
		logits := g.Output(0, nil)
		if look != nil {
			var extra []int
			if g.TTilde != nil {
				extra = f.Model.HeadLookahead(g.Rows(g.TTilde, 0))
			}
			if err := look.Add(extra, m.Rows); err != nil {
				tw.Close()
				return done, fmt.Errorf("utterance %s: %w", key, err)
			}
		}
		out = o.Output.Apply(logits, p, out)
		if pr != nil {
			if err := pr.SubtractRows(out, p); err != nil {
				tw.Close()
				return done, err
			}
		}
		if err := tw.Write(key, kaldiio.Matrix{Rows: m.Rows, Cols: p, Data: out}); err != nil {
			tw.Close()
			return done, err
		}
		done++
		if o.Progress != nil {
			o.Progress()
		}
	}
	if err := sr.Err(); err != nil {
		tw.Close()
		return done, err
	}
	if err := tw.Close(); err != nil {
		return done, err
	}
	if look != nil {
		log("look-ahead over %d frames (%s): mean %.3f frames, p95 %d; in frame order mean %.3f, p95 %d (10 ms each)",
			look.Frames(), lookaheadWhat(look), look.Mean(), look.Percentile(0.95), look.InOrderMean(), look.InOrderPercentile(0.95))
		if o.LookaheadStats != "" {
			if err := atomicfile.Write(o.LookaheadStats, look.Write); err != nil {
				return done, err
			}
		}
	}
	return done, nil
}

// lookaheadWhat says what a frame's look-ahead is made of, for the log.
func lookaheadWhat(s *am.LookaheadStats) string {
	if s.Variant == am.LookaheadVariable {
		return fmt.Sprintf("%d fixed + ceil(min(t~, %d))", s.Fixed, s.Max-s.Fixed)
	}
	return fmt.Sprintf("fixed: right context + target delay = %d", s.Fixed)
}
