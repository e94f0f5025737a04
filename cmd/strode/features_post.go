package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/features"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "compute-cmvn-stats",
		Summary:     "Compute cepstral mean and variance normalization statistics",
		Description: "Compute cepstral mean and variance normalization statistics.\nIf wspecifier provided: per-utterance by default, or per-speaker if spk2utt option provided;\nif wxfilename: global. Statistics are Kaldi's 2 x (dim+1) double matrix.",
		ArgsUsage:   "<feats-rspecifier> (<stats-wspecifier>|<stats-wxfilename>)",
		Examples:    []string{"strode compute-cmvn-stats --spk2utt=ark:data/train/spk2utt scp:data/train/feats.scp ark,scp:cmvn.ark,cmvn.scp"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var spk2utt, weights string
			binary := true
			fs.StringVar(&spk2utt, "spk2utt", "", "rspecifier for speaker to utterance-list map")
			fs.BoolVar(&binary, "binary", binary, "write in binary mode (applies only to global CMN/CVN)")
			fs.StringVar(&weights, "weights", "", "rspecifier for a vector of floats for each utterance, that's a per-frame weight.")
			return func(ctx *kaldicmd.Context) error {
				done, failed, err := features.ComputeCmvnStatsTableWeighted(ctx.Arg(0), ctx.Arg(1), spk2utt, weights, binary, ctx, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				ctx.Log("Done accumulating CMVN stats for %d utterances; %d had errors.", done, failed)
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
	register(&kaldicmd.Command{
		Name:        "apply-cmvn",
		Summary:     "Apply cepstral mean and (optionally) variance normalization",
		Description: "Apply cepstral mean and (optionally) variance normalization.\nPer-utterance by default, or per-speaker if utt2spk option provided.",
		ArgsUsage:   "(<cmvn-stats-rspecifier>|<cmvn-stats-rxfilename>) <feats-rspecifier> <feats-wspecifier>",
		Examples:    []string{"strode apply-cmvn --utt2spk=ark:data/train/utt2spk scp:data/train/cmvn.scp scp:data/train/feats.scp ark:-"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := features.ApplyCmvnOptions{NormMeans: true}
			fs.StringVar(&o.Utt2spk, "utt2spk", "", "rspecifier for utterance to speaker map")
			fs.BoolVar(&o.NormVars, "norm-vars", false, "If true, normalize variances.")
			fs.BoolVar(&o.Reverse, "reverse", false, "If true, apply CMVN in a reverse sense, so as to transform zero-mean, unit-variance input into data with the given mean and variance.")
			fs.BoolVar(&o.NormMeans, "norm-means", true, "You can set this to false to turn off mean normalization.  Note, the same can be achieved by using 'fake' CMVN stats; but this option allows you to not have to compute those stats.")
			return func(ctx *kaldicmd.Context) error {
				done, failed, err := features.ApplyCmvnTable(o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), ctx, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				if o.NormMeans {
					ctx.Log("Applied cepstral mean normalization to %d utterances, errors on %d", done, failed)
				} else {
					ctx.Log("Copied %d utterances.", done)
				}
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
	register(&kaldicmd.Command{
		Name:        "add-deltas",
		Summary:     "Add deltas (typically to raw mfcc or plp features)",
		Description: "Add deltas (typically to raw mfcc or plp features).",
		ArgsUsage:   "<in-rspecifier> <out-wspecifier>",
		Examples:    []string{"strode add-deltas --delta-order=2 ark:feats.ark ark:-"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := features.DefaultDeltaFeaturesOptions()
			o.Register(fs)
			var truncate int
			fs.IntVar(&truncate, "truncate", 0, "If nonzero, first truncate features to this dimension.")
			return func(ctx *kaldicmd.Context) error {
				if truncate < 0 {
					return fmt.Errorf("--truncate=%d must not be negative", truncate)
				}
				df, err := features.NewDeltaFeatures(o)
				if err != nil {
					return err
				}
				_, err = features.MapFeatures(ctx.Arg(0), ctx.Arg(1), func(key string, m kaldiio.Matrix) (kaldiio.Matrix, bool, error) {
					if m.Rows == 0 {
						ctx.Warn("Empty feature matrix for key %s", key)
						return m, false, nil
					}
					if truncate != 0 {
						if truncate > m.Cols {
							return m, false, fmt.Errorf("cannot truncate features as dimension %d is smaller than truncation dimension %d", m.Cols, truncate)
						}
						t := kaldiio.NewMatrix(m.Rows, truncate)
						for r := 0; r < m.Rows; r++ {
							copy(t.Row(r), m.Row(r)[:truncate])
						}
						m = t
					}
					out := df.Compute(m.Data, m.Rows, m.Cols)
					return kaldiio.Matrix{Rows: m.Rows, Cols: m.Cols * (o.Order + 1), Data: out}, true, nil
				}, tableStreams(ctx)...)
				return err
			}
		},
	})
	register(&kaldicmd.Command{
		Name:        "splice-feats",
		Summary:     "Splice features with left and right context",
		Description: "Splice features with left and right context (e.g. prior to LDA); frames beyond the edges repeat the first and last frames.",
		ArgsUsage:   "<feature-rspecifier> <feature-wspecifier>",
		Examples:    []string{"strode splice-feats --left-context=4 --right-context=4 scp:feats.scp ark:-"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			left, right := 4, 4
			fs.IntVar(&left, "left-context", left, "Number of frames of left context")
			fs.IntVar(&right, "right-context", right, "Number of frames of right context")
			return func(ctx *kaldicmd.Context) error {
				_, err := features.MapFeatures(ctx.Arg(0), ctx.Arg(1), func(key string, m kaldiio.Matrix) (kaldiio.Matrix, bool, error) {
					out, err := features.SpliceFrames(m.Data, m.Rows, m.Cols, left, right)
					if err != nil {
						return m, false, err
					}
					return kaldiio.Matrix{Rows: m.Rows, Cols: m.Cols * (1 + left + right), Data: out}, true, nil
				}, tableStreams(ctx)...)
				return err
			}
		},
	})
}
