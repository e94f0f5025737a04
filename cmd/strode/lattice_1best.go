package main

import (
	"errors"
	"flag"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-1best",
		Summary:     "Best path through lattices, written as (linear) lattices",
		Description: "Compute best path through lattices and write out as FSTs\nNote: differs from lattice-nbest with --n=1 because we won't\nappend -1 to the utterance-ids.  Differs from lattice-best-path\nbecause output is FST.",
		ArgsUsage:   "<lattice-rspecifier> <lattice-wspecifier>",
		Examples:    []string{"strode lattice-1best --acoustic-scale=0.1 ark:1.lats ark:1best.lats"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var acScale, lmScale, wip float64 = 1, 1, 0
			fs.Float64Var(&acScale, "acoustic-scale", acScale, "Scaling factor for acoustic likelihoods")
			fs.Float64Var(&lmScale, "lm-scale", lmScale, "Scaling factor for language model scores.")
			fs.Float64Var(&wip, "word-ins-penalty", wip, "Word insertion penality.")
			return func(ctx *kaldicmd.Context) error {
				ac, lm, pen := float32(acScale), float32(lmScale), float32(wip)
				if ac == 0 || lm == 0 {
					return errors.New("Do not use exactly zero acoustic or LM scale (cannot be inverted)")
				}
				src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer src.Close()
				out, err := kaldiio.OpenTableWriter(ctx.Arg(1), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer out.Abort()
				done, failed := 0, 0
				for src.Next() {
					key, clat := src.Key(), src.Value()
					best, err := bestPathLattice(&clat, lm, ac, pen)
					if err != nil {
						ctx.Warn("Possibly empty lattice for utterance-id %s(no output)", key)
						failed++
						continue
					}
					if err := out.Write(key, *best); err != nil {
						return err
					}
					done++
				}
				if err := src.Err(); err != nil {
					return err
				}
				if err := out.Close(); err != nil {
					return err
				}
				ctx.Log("Done converting %d to best path, %d had errors.", done, failed)
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}

// bestPathLattice is lattice-1best's work on one lattice: scale, add the
// penalty (when positive, as Kaldi), take the best path, then undo the
// penalty and the scaling so the path carries its original costs (up to
// float rounding, as Kaldi's).
func bestPathLattice(clat *lattice.CompactLattice, lm, ac, pen float32) (*lattice.CompactLattice, error) {
	clat.Scale(lattice.LatticeScale(lm, ac))
	if pen > 0 {
		clat.AddWordInsPenalty(pen)
	}
	best, err := clat.ShortestPath()
	if err != nil {
		return nil, err
	}
	if pen > 0 {
		best.AddWordInsPenalty(-pen)
	}
	best.Scale([2][2]float64{{1 / float64(lm), 0}, {0, 1 / float64(ac)}})
	return best, nil
}
