package main

import (
	"flag"
	"math/rand"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "prob-to-post",
		Summary: "Convert a matrix of probabilities to posteriors",
		Description: "Convert a matrix of probabilities (e.g. strode forward's softmax output) to posteriors.\n" +
			"Caution: the output is then posteriors of pdf-ids, rather than transition-ids (c.f. post-to-pdf-post).\n" +
			"Entries below --min-post are pruned, by default with a randomized method that preserves\n" +
			"expectations (seeded by --srand, so the same seed gives the same posteriors).",
		ArgsUsage: "<prob-matrix-rspecifier> <posteriors-wspecifier>",
		Examples:  []string{"strode forward final.am scp:feats.scp ark:- | strode prob-to-post ark:- ark:1.post"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			minPost := 0.01
			randomPrune := true
			srand := int64(0)
			fs.Float64Var(&minPost, "min-post", minPost, "Minimum posterior we will output (smaller ones are pruned).  Also see --random-prune")
			fs.BoolVar(&randomPrune, "random-prune", randomPrune, "If true, prune posteriors with a randomized method that preserves expectations.")
			fs.Int64Var(&srand, "srand", srand, "Seed for the random pruning")
			return func(ctx *kaldicmd.Context) error {
				rnd := rand.New(rand.NewSource(srand))
				done, _, err := mapTable(ctx, ctx.Arg(0), kaldiio.MatrixCodec, ctx.Arg(1), kaldiio.PosteriorCodec,
					func(key string, m kaldiio.Matrix) (kaldiio.Posterior, error) {
						return hmm.ProbToPost(m, float32(minPost), randomPrune, rnd), nil
					})
				if err != nil {
					return err
				}
				ctx.Log("Converted %d log-prob matrices to posteriors.", done)
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
