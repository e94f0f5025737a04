package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "ali-to-phones",
		Summary: "Convert model-level alignments to phone sequences",
		Description: "Convert model-level alignments to phone-sequences (in integer, not text, form), " +
			"or with --per-frame=true the phone of every frame, or with --write-lengths=true " +
			"(phone, length) pairs.",
		ArgsUsage: "<model> <alignments-rspecifier> <phone-transcript-wspecifier>",
		Examples:  []string{"strode ali-to-phones 1.mdl ark:1.ali ark:-", "strode ali-to-phones --per-frame=true 1.mdl ark:1.ali ark,t:-"},
		MinArgs:   3,
		MaxArgs:   3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			perFrame := fs.Bool("per-frame", false, "If true, write out the frame-level phone alignment (else phone sequence)")
			writeLengths := fs.Bool("write-lengths", false, "If true, write the #frames for each phone (different format)")
			return func(ctx *kaldicmd.Context) error {
				if *perFrame && *writeLengths {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("--per-frame and --write-lengths cannot both be true"))
				}
				tm, err := readModelTM(ctx, ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				var done int
				if *writeLengths {
					done, _, err = mapAlignments(ctx, ctx.Arg(1), ctx.Arg(2), decoder.Int32PairVectorCodec,
						func(key string, ali []int32) ([][2]int32, error) {
							p, ok, err := tm.PhoneLengths(ali)
							if err == nil && !ok {
								ctx.Warn("Split to phones failed for %s: alignment does not look like whole phones", key)
							}
							return p, err
						})
				} else {
					done, _, err = mapAlignments(ctx, ctx.Arg(1), ctx.Arg(2), kaldiio.IntVectorCodec,
						func(key string, ali []int32) (kaldiio.IntVector, error) {
							p, ok, err := tm.AliToPhones(ali, *perFrame)
							if err == nil && !ok {
								ctx.Warn("Split to phones failed for %s: alignment does not look like whole phones", key)
							}
							return p, err
						})
				}
				ctx.Log("Done %d utterances.", done)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				return nil
			}
		},
	})
}
