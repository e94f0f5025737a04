package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
	"github.com/strode-asr/strode/recipes/chime5"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "wav-select-channel",
		Summary: "Copy one channel of a wave file as a one-channel wave (sox's 'remix N' in wav.scp pipes)",
		Description: "Copies channel --channel (0 = left) of a RIFF/WAVE file to a one-channel wave of the same encoding,\n" +
			"streaming (it holds only a small buffer), for wav.scp lines such as\n" +
			"  P05_S02.L strode wav-select-channel --channel=0 S02_P05.wav - |\n" +
			"where Kaldi recipes write 'sox S02_P05.wav -t wav - remix 1 |'.",
		ArgsUsage: "<wav-rxfilename> <wav-wxfilename>",
		Examples:  []string{"strode wav-select-channel --channel=1 S02_P05.wav - | strode wav-copy ..."},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			channel := fs.Int("channel", 0, "Channel to copy (0 -> left, 1 -> right), as compute-*-feats --channel")
			return func(ctx *kaldicmd.Context) error {
				in, err := kaldiio.OpenInput(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer in.Close()
				out, err := kaldiio.OpenOutput(ctx.Arg(1), tableStreams(ctx)...)
				if err != nil {
					return err
				}
				if err := chime5.SelectChannel(in.Reader(), out.Writer(), *channel); err != nil {
					out.Abort()
					return fmt.Errorf("%s: %w", ctx.Arg(0), err)
				}
				if err := out.Close(); err != nil {
					return err
				}
				return in.Close()
			}
		},
	})
}
