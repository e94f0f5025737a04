package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-to-nbest",
		Summary:     "N best paths of lattices, written as linear lattices keyed <utt>-1 … <utt>-n",
		Description: "Work out N-best paths in lattices and write out as FSTs\nNote: only guarantees distinct word sequences if distinct paths in\ninput lattices had distinct word-sequences (this will not be true if\nyou produced lattices with --determinize-lattice=false, i.e. state-level\nlattices).",
		ArgsUsage:   "<lattice-rspecifier> <lattice-wspecifier>",
		Examples:    []string{"strode lattice-to-nbest --acoustic-scale=0.1 --n=10 ark:1.lats ark:nbest.lats"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var acScale, lmScale float64 = 1, 1
			n := 1
			random := false
			seed := 0
			fs.Float64Var(&acScale, "acoustic-scale", acScale, "Scaling factor for acoustic likelihoods")
			fs.Float64Var(&lmScale, "lm-scale", lmScale, "Scaling factor for language model scores.")
			fs.IntVar(&n, "n", n, "Number of distinct paths")
			fs.BoolVar(&random, "random", random, "If true, generate n random paths instead of n-best paths (not supported by strode)")
			fs.IntVar(&seed, "srand", seed, "Seed for random number generator (only relevant if --random=true)")
			return func(ctx *kaldicmd.Context) error {
				if n <= 0 {
					return fmt.Errorf("--n must be positive, got %d", n)
				}
				if random {
					return errors.New("--random=true (random paths) is not supported by strode; use the n best paths")
				}
				ac, lm := float32(acScale), float32(lmScale)
				if ac == 0 || lm == 0 {
					return errors.New("Do not use a zero acoustic or LM scale (cannot be inverted)")
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
				done, paths := 0, 0
				unscale := [2][2]float64{{1 / float64(lm), 0}, {0, 1 / float64(ac)}}
				for src.Next() {
					key, clat := src.Key(), src.Value()
					clat.Scale(lattice.LatticeScale(lm, ac))
					nbest, err := clat.NBest(n)
					if err != nil {
						return fmt.Errorf("lattice for key %s: %w", key, err)
					}
					if len(nbest) == 0 {
						ctx.Warn("Possibly empty lattice for utterance-id %s(no N-best entries)", key)
						continue
					}
					for k, p := range nbest {
						p.Scale(unscale)
						if err := out.Write(fmt.Sprintf("%s-%d", key, k+1), *p); err != nil {
							return err
						}
					}
					done++
					paths += len(nbest)
				}
				if err := src.Err(); err != nil {
					return err
				}
				if err := out.Close(); err != nil {
					return err
				}
				ctx.Log("Done applying N-best algorithm to %d lattices with n = %d, average actual #paths is %s", done, n, fmtG(float32(float64(paths)/(float64(done)+1e-20))))
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
