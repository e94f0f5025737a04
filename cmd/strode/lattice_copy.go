package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-copy",
		Summary:     "Copy lattices (e.g. binary to text)",
		Description: "Copy lattices (e.g. useful for changing to text mode or changing\nformat to standard from compact lattice.)",
		ArgsUsage:   "<lattice-rspecifier> <lattice-wspecifier>",
		Examples:    []string{"strode lattice-copy --write-compact=false ark:1.lats ark,t:text.lats"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			writeCompact := true
			fs.BoolVar(&writeCompact, "write-compact", writeCompact, "If true, write in normal (compact) form.")
			return func(ctx *kaldicmd.Context) error {
				return copyLattices(ctx, writeCompact, nil)
			}
		},
	})
}
