package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/transform"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "transform-feats",
		Summary:     "Apply transform (e.g. LDA; HLDA; fMLLR/CMLLR; MLLT/STC)",
		Description: "Apply transform (e.g. LDA; HLDA; fMLLR/CMLLR; MLLT/STC)\nLinear transform if transform-num-cols == feature-dim, affine if\ntransform-num-cols == feature-dim+1 (->append 1.0 to features)\nPer-utterance by default, or per-speaker if utt2spk option provided\nGlobal if transform-rxfilename provided.",
		ArgsUsage:   "(transform-rspecifier|transform-rxfilename) <feats-rspecifier> <feats-wspecifier>",
		Examples:    []string{"strode transform-feats final.mat scp:feats.scp ark:-", "strode transform-feats --utt2spk=ark:data/train/utt2spk ark:trans.1 ark:- ark:-"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var o transform.TransformFeatsOptions
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				return transformExit(transform.TransformFeats(transformEnv(ctx), o, ctx.Arg(0), ctx.Arg(1), ctx.Arg(2)))
			}
		},
	})
}
