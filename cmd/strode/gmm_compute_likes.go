package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-compute-likes",
		Summary:     "Compute log-likelihoods from a GMM-based model",
		Description: "Compute log-likelihoods from GMM-based model\n(outputs matrices of log-likelihoods indexed by (frame, pdf)",
		ArgsUsage:   "<model-in> <features-rspecifier> <likes-wspecifier>",
		Examples:    []string{"strode gmm-compute-likes final.mdl scp:feats.scp ark:- | strode latgen-faster-mapped final.mdl HCLG.fst ark:- ark:lat.1"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				done, err := computeLikes(ctx, &m.AM, ctx.Arg(1), ctx.Arg(2))
				ctx.Log("gmm-compute-likes: computed likelihoods for %d utterances.", done)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				return nil
			}
		},
	})
}

// computeLikes writes, for every utterance of the features, the
// frames × pdfs matrix of GMM log-likelihoods.
func computeLikes(ctx *kaldicmd.Context, am *gmm.AmDiagGmm, rspec, wspec string) (int, error) {
	sr, err := kaldiio.OpenSequentialReader(rspec, kaldiio.MatrixCodec, tableStreams(ctx)...)
	if err != nil {
		return 0, err
	}
	defer sr.Close()
	tw, err := kaldiio.OpenTableWriter(wspec, kaldiio.MatrixCodec, tableStreams(ctx)...)
	if err != nil {
		return 0, err
	}
	done := 0
	var out kaldiio.Matrix
	for sr.Next() {
		feats := sr.Value()
		if err := am.LogLikelihoods(&feats, &out); err != nil {
			tw.Close()
			return done, fmt.Errorf("utterance %s: %w", sr.Key(), err)
		}
		if err := tw.Write(sr.Key(), out); err != nil {
			tw.Close()
			return done, err
		}
		done++
	}
	if err := sr.Err(); err != nil {
		tw.Close()
		return done, err
	}
	return done, tw.Close()
}
