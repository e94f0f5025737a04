package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-add-penalty",
		Summary:     "Add a word insertion penalty to lattices",
		Description: "Add word insertion penalty to the lattice.\nNote: penalties are negative log-probs, base e, and are added to the\n'language model' part of the cost.",
		ArgsUsage:   "<lattice-rspecifier> <lattice-wspecifier>",
		Examples:    []string{"strode lattice-add-penalty --word-ins-penalty=1.0 ark:- ark:-"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var penalty float64
			fs.Float64Var(&penalty, "word-ins-penalty", 0, "Word insertion penalty")
			return func(ctx *kaldicmd.Context) error {
				p := float32(penalty)
				return copyLattices(ctx, true, func(c *lattice.CompactLattice) { c.AddWordInsPenalty(p) })
			}
		},
	})
}
