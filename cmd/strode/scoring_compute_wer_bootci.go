package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/scoring"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "compute-wer-bootci",
		Summary: "WER with its bootstrap 95% confidence interval (and two systems' comparison)",
		Description: "Compute a bootstrapping of WER to extract the 95% confidence interval.\n" +
			"Take a reference and a transcription file, in integer or text format,\n" +
			"and outputs overall WER statistics to standard output along with its\n" +
			"confidence interval using the bootstrap method of Bisani and Ney.\n" +
			"If a second transcription file corresponding to the same reference is\n" +
			"provided, a bootstrap comparison of the two transcription is performed\n" +
			"to estimate the probability of improvement.\n" +
			"The draws are Kaldi's (glibc rand(), never seeded), so the output is the\n" +
			"Kaldi binary's for the same input.",
		ArgsUsage: "<ref-rspecifier> <hyp-rspecifier> [<hyp2-rspecifier>]",
		Examples: []string{"strode compute-wer-bootci --mode=present ark:data/train/text ark:hyp_text",
			"strode compute-wer-bootci ark:data/train/text ark:hyp_text ark:hyp_text2"},
		MinArgs: 2,
		MaxArgs: 3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := scoring.DefaultBootCIOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				m, err := scoring.ParseMode(o.Mode)
				if err != nil {
					return err
				}
				return computeWERBootCI(ctx, m, o.Replications)
			}
		},
	})
}

// computeWERBootCI reads the references in order and each hypothesis set by
// key, as compute-wer-bootci does, then draws the bootstrap.
func computeWERBootCI(ctx *kaldicmd.Context, m scoring.Mode, replications int) error {
	refs, err := kaldiio.OpenSequentialReader(ctx.Arg(0), kaldiio.TokenVectorCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer refs.Close()
	var hyps []*kaldiio.RandomAccessReader[kaldiio.TokenVector]
	for _, spec := range ctx.Args()[1:] {
		h, err := kaldiio.OpenRandomAccessReader(spec, kaldiio.TokenVectorCodec, tableStreams(ctx)...)
		if err != nil {
			return err
		}
		defer h.Close()
		hyps = append(hyps, h)
	}
	b := scoring.NewBootstrap(m, len(hyps))
	words := make([][]string, len(hyps))
	ok := make([]bool, len(hyps))
	for refs.Next() {
		key := refs.Key()
		for i, h := range hyps {
			words[i] = nil
			if ok[i], err = h.HasKey(key); err != nil {
				return err
			}
			if ok[i] {
				if words[i], err = h.Value(key); err != nil {
					return err
				}
			}
		}
		if err := b.Add(key, refs.Value(), words, ok); err != nil {
			return err
		}
	}
	if err := refs.Err(); err != nil {
		return err
	}
	return b.Run(ctx.Stdout, replications)
}
