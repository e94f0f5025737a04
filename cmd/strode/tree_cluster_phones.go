package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "cluster-phones",
		Summary:     "Cluster phones (or sets of phones) into sets for various purposes",
		Description: "Cluster phones (or sets of phones) into sets for various purposes",
		ArgsUsage:   "<tree-stats-in> <phone-sets-in> <clustered-phones-out>",
		Examples:    []string{"strode cluster-phones 1.tacc phonesets.txt questions.txt"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			opts := tree.DefaultClusterPhonesOptions()
			opts.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				stats, err := tree.ReadBuildTreeStats(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				if err := opts.Validate(); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				sets, err := tree.ReadIntegerVectorVector(ctx.Arg(1), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("could not read phone sets from %s: %w", ctx.Arg(1), err))
				}
				if len(sets) == 0 {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("no phone sets in phone sets file %s", ctx.Arg(1)))
				}
				res, err := tree.ClusterPhones(stats, sets, opts)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("%s: %w", ctx.Arg(0), err))
				}
				for _, w := range res.Warnings {
					ctx.Warn("%s", w)
				}
				if err := tree.WriteIntegerVectorVector(ctx.Arg(2), res.Sets, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("error writing questions to %s: %w", ctx.Arg(2), err))
				}
				ctx.Log("Wrote questions to %s", ctx.Arg(2))
				return nil
			}
		},
	})
}
