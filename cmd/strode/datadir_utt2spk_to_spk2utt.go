package main

import (
	"flag"
	"os"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/recipes/datadir"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "utt2spk-to-spk2utt",
		Summary: "Convert utt2spk to spk2utt, as Kaldi's utils/utt2spk_to_spk2utt.pl",
		Description: "Reads utt2spk (\"utt spk\" lines) from the file given or stdin and writes spk2utt\n" +
			"(\"spk utt1 utt2 ...\") to stdout, speakers in order of first appearance.",
		ArgsUsage: "[<utt2spk>]",
		Examples:  []string{"strode utt2spk-to-spk2utt data/train/utt2spk > data/train/spk2utt", "strode utt2spk-to-spk2utt < utt2spk"},
		MinArgs:   0,
		MaxArgs:   1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				if ctx.Arg(0) == "" || ctx.Arg(0) == "-" {
					return datadir.Utt2SpkToSpk2Utt(ctx.Stdin, ctx.Stdout, "stdin")
				}
				f, err := os.Open(ctx.Arg(0))
				if err != nil {
					return err
				}
				defer f.Close()
				return datadir.Utt2SpkToSpk2Utt(f, ctx.Stdout, ctx.Arg(0))
			}
		},
	})
}
