package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "copy-tree",
		Summary:     "Copy a decision tree (ContextDependency), binary or text",
		Description: "Copy decision tree (possibly changing binary/text format)",
		ArgsUsage:   "<tree-in> <tree-out>",
		Examples:    []string{"strode copy-tree --binary=false tree tree.txt"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode.")
			return func(ctx *kaldicmd.Context) error {
				var ctxDep tree.ContextDependency
				if err := kaldiio.ReadObject(ctx.Arg(0), tree.ContextDependencyCodec, &ctxDep, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				if err := kaldiio.WriteObject(ctx.Arg(1), tree.ContextDependencyCodec, *binary, &ctxDep, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				ctx.Log("Copied tree")
				return nil
			}
		},
	})
}
