package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "sum-tree-stats",
		Summary:     "Sum statistics for phonetic-context tree building",
		Description: "Sum statistics for phonetic-context tree building.",
		ArgsUsage:   "<tree-accs-out> <tree-accs-in1> <tree-accs-in2> ...",
		Examples:    []string{"strode sum-tree-stats treeacc 1.treeacc 2.treeacc 3.treeacc"},
		MinArgs:     2,
		MaxArgs:     -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			return func(ctx *kaldicmd.Context) error {
				var sets []tree.BuildTreeStats
				for _, rx := range ctx.Args()[1:] {
					s, err := tree.ReadBuildTreeStats(rx, tableStreams(ctx)...)
					if err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					sets = append(sets, s)
				}
				sum, err := tree.SumTreeStats(sets...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				if err := kaldiio.WriteObject(ctx.Arg(0), tree.BuildTreeStatsCodec, *binary, &sum, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				ctx.Log("Wrote summed accs ( %d individual stats)", len(sum))
				if len(sum) == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
