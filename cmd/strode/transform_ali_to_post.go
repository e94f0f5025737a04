package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "ali-to-post",
		Summary:     "Convert alignments to posteriors",
		Description: "Convert alignments to posteriors (Viterbi style: the aligned transition-id with weight 1.0).",
		ArgsUsage:   "<alignments-rspecifier> <posteriors-wspecifier>",
		Examples:    []string{"strode ali-to-post ark:1.ali ark:1.post"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.AliToPost(transformEnv(ctx), ctx.Arg(0), ctx.Arg(1)))
			}
		},
	})
}
