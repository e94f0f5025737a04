package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
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
			o := lattice.DefaultOneBestOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if err := o.Validate(); err != nil {
					return err
				}
				done, failed, err := mapTable(ctx, ctx.Arg(0), lattice.CompactLatticeCodec, ctx.Arg(1), lattice.CompactLatticeCodec,
					func(key string, clat lattice.CompactLattice) (lattice.CompactLattice, error) {
						best, err := o.BestPath(&clat)
						if err != nil {
							ctx.Warn("Possibly empty lattice for utterance-id %s(no output)", key)
							return clat, errSkipped
						}
						return *best, nil
					})
				if err != nil {
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
