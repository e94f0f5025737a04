package kaldinnet

import (
	"fmt"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/decoder/priors"
	"github.com/strode-asr/strode/kaldiio"
)

// ForwardOptions are nnet-forward's options plus the tables the model's
// feature pipeline may need.
type ForwardOptions struct {
	Output  am.OutputOptions
	Prior   priors.Options
	CMVN    string // --cmvn, when the pipeline applies CMVN from a table
	Utt2spk string // --utt2spk
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
		logits, err := fw.Logits(&am.Utterance{Key: key, Rows: m.Rows, Feats: feats})
		if err != nil {
			tw.Close()
			return done, err
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
	return done, tw.Close()
}
