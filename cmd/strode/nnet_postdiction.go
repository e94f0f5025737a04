package main

import (
	"flag"
	"os"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/kaldinnet"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "postdiction",
		Summary: "Show a STRODE model's postdiction: softmax along the ODE solution h(i+t), t in [0, 2 t~_i]",
		Description: "The STRODE paper's Figure 3: for frame --frame of utterance --utt, the softmax probability of the\n" +
			"aligned label (from --ali) and of the two most probable others as the ODE solution runs over\n" +
			"t in [0, 2 t~_i], written to --out-dir as UTT_FRAME.json, UTT_FRAME.png and .svg; the per-frame t~_i of\n" +
			"the whole utterance are printed as a table (frame, t~, aligned pdf, arg-max pdf).",
		ArgsUsage: "<model-in> <feature-rspecifier>",
		Examples: []string{
			"strode postdiction --ali='ark:gunzip -c exp/ali1/ali.1.gz |' --transition-model=exp/ali1/final.mdl \\\n" +
				"    --utt=george_3_0 --frame=20 --out-dir=exp/strode/postdiction exp/strode/final.am scp:data/test/feats.scp",
		},
		MinArgs: 2, MaxArgs: 2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := kaldinnet.DefaultPostdictionOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if o.Utt == "" {
					return kaldicmd.Exit(1, errUttRequired)
				}
				f, err := am.Load(ctx.Arg(0))
				if err != nil {
					return err
				}
				if o.OutDir != "" {
					if err := os.MkdirAll(o.OutDir, 0o755); err != nil {
						return err
					}
				}
				tr, err := kaldinnet.Postdiction(f, ctx.Arg(1), o, ctx.Stdout)
				if err == nil && tr != nil {
					ctx.Log("frame %d: t~ = %.4g; wrote %s/%s_%d.{json,png,svg}", o.Frame, tr.TTilde, o.OutDir, o.Utt, o.Frame)
				}
				return err
			}
		},
	})
}

var errUttRequired = errorString("--utt is required")

type errorString string

func (e errorString) Error() string { return string(e) }
