package main

import (
	"errors"
	"flag"
	"io"

	"github.com/strode-asr/strode/decoder/scoring"
	"github.com/strode-asr/strode/internal/kaldicmd"
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
			mode := fs.String("mode", "strict", "Scoring mode: \"present\"|\"all\"|\"strict\":\n"+
				"  \"present\" means score those we have transcriptions for\n"+
				"  \"all\" means treat absent transcriptions as empty\n"+
				"  \"strict\" means die if all in ref not also in hyp")
			fs.Bool("text", false, "Deprecated option! Keeping for compatibility reasons.")
			return func(ctx *kaldicmd.Context) error {
				m, err := scoring.ParseMode(*mode)
				if err != nil {
					return kaldicmd.Exit(255, err)
				}
				hypIn, closeHyp, err := openTextTable(ctx, ctx.Arg(1))
				if err != nil {
					return kaldicmd.Exit(255, err)
				}
				hyps, err := scoring.ReadTokenTable(hypIn, ctx.Arg(1))
				if cerr := closeHyp(); err == nil {
					err = cerr
				}
				if err != nil {
					return kaldicmd.Exit(255, err)
				}
				refIn, closeRef, err := openTextTable(ctx, ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(255, err)
				}
				defer closeRef()
				w := scoring.WER{Mode: m}
				refs := scoring.NewTokenReader(refIn, ctx.Arg(0))
				for {
					e, err := refs.Next()
					if errors.Is(err, io.EOF) {
						break
					}
					if err != nil {
						return kaldicmd.Exit(255, err)
					}
					h, ok := hyps[e.Key]
					if err := w.Add(e.Key, e.Tokens, h, ok); err != nil {
						return kaldicmd.Exit(255, err)
					}
				}
				if err := closeRef(); err != nil {
					return kaldicmd.Exit(255, err)
				}
				return w.WriteReport(ctx.Stdout)
			}
		},
	})
}
