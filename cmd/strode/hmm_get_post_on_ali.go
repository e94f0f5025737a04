package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "get-post-on-ali",
		Summary: "Posteriors of the aligned indexes, one weight per frame",
		Description: "Given input posteriors, e.g. derived from prob-to-post or lattice-to-post, and an alignment\n" +
			"typically derived from the best path of a lattice, outputs the probability in\n" +
			"the posterior of the corresponding index in the alignment, or zero if it was\n" +
			"not there.  These are output as a vector of weights, one per utterance.\n" +
			"The indexes must match (e.g. pdf-id posteriors with ali-to-pdf's alignments).\n" +
			"Utterances without an alignment are counted and skipped; a frame-count mismatch is an error.",
		ArgsUsage: "<posteriors-rspecifier> <ali-rspecifier> <weights-wspecifier>",
		Examples:  []string{"strode get-post-on-ali ark:post.ark ark,s,cs:ali.ark ark:weights.ark"},
		MinArgs:   3,
		MaxArgs:   3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				alis, err := kaldiio.OpenRandomAccessReader(ctx.Arg(1), kaldiio.IntVectorCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer alis.Close()
				done, missing, err := mapTable(ctx, ctx.Arg(0), kaldiio.PosteriorCodec, ctx.Arg(2), kaldiio.VectorCodec,
					func(key string, post kaldiio.Posterior) (kaldiio.Vector, error) {
						if ok, err := alis.HasKey(key); err != nil {
							return nil, err
						} else if !ok {
							return nil, errSkipped
						}
						ali, err := alis.Value(key)
						if err != nil {
							return nil, err
						}
						w, err := hmm.PostOnAli(post, ali)
						if err != nil {
							return nil, fmt.Errorf("utterance %s in %s: %w", key, ctx.Arg(0), err)
						}
						return w, nil
					})
				if err != nil {
					return err
				}
				ctx.Log("Done getting the posteriors under the alignment path for %d utterances. %d with missing alignments.", done, missing)
				return nil
			}
		},
	})
}
