package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/scoring"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "compute-wer",
		Summary: "Compute WER by comparing reference and hypothesis transcriptions",
		Description: "Compute WER by comparing different transcriptions\n" +
			"Takes two transcription files, in integer or text format,\n" +
			"and outputs overall WER statistics to standard output.\n" +
			"Prints Kaldi's %WER/%SER/Scored lines; exits 255 in --mode=strict\n" +
			"when a reference key has no hypothesis, as Kaldi does.",
		ArgsUsage: "<ref-rspecifier> <hyp-rspecifier>",
		Examples:  []string{"strode compute-wer --text --mode=present ark:data/train/text ark:hyp_text"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := scoring.DefaultWEROptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				m, err := scoring.ParseMode(o.Mode)
				if err != nil {
					return kaldicmd.Exit(255, err)
				}
				if err := computeWER(ctx, m); err != nil {
					return kaldicmd.Exit(255, err) // Kaldi's main returns -1
				}
				return nil
			}
		},
	})
}

// computeWER runs compute-wer's loop: references streamed in order,
// hypotheses looked up by key.
func computeWER(ctx *kaldicmd.Context, m scoring.Mode) error {
	refs, err := kaldiio.OpenSequentialReader(ctx.Arg(0), kaldiio.TokenVectorCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer refs.Close()
	hyps, err := kaldiio.OpenRandomAccessReader(ctx.Arg(1), kaldiio.TokenVectorCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer hyps.Close()
	w := scoring.WER{Mode: m}
	for refs.Next() {
		key := refs.Key()
		ok, err := hyps.HasKey(key)
		if err != nil {
			return err
		}
		var hyp kaldiio.TokenVector
		if ok {
			if hyp, err = hyps.Value(key); err != nil {
				return err
			}
		}
		if err := w.Add(key, refs.Value(), hyp, ok); err != nil {
			return err
		}
	}
	if err := refs.Err(); err != nil {
		return err
	}
	return w.WriteReport(ctx.Stdout)
}
