package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/align"
	"github.com/strode-asr/strode/decoder/hmm"
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
			ctmOutput := fs.Bool("ctm-output", false, "If true, output the alignments in ctm format (the confidences will be set to 1)")
			frameShift := fs.Float64("frame-shift", 0.01, "frame shift used to control the times of the ctm output")
			return func(ctx *kaldicmd.Context) error {
				if *ctmOutput {
					tm, err := readModelTM(ctx, ctx.Arg(0))
					if err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					return aliToPhonesCtm(ctx, tm, float32(*frameShift))
				}
				if *perFrame && *writeLengths {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("--per-frame and --write-lengths cannot both be true"))
				}
				tm, err := readModelTM(ctx, ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				var done int
				if *writeLengths {
					done, _, err = mapAlignments(ctx, ctx.Arg(1), ctx.Arg(2), align.Int32PairVectorCodec,
						func(key string, ali []int32) ([][2]int32, error) {
							p, ok, err := align.PhoneLengths(tm, ali)
							if err == nil && !ok {
								ctx.Warn("Split to phones failed for %s: alignment does not look like whole phones", key)
							}
							return p, err
						})
				} else {
					done, _, err = mapAlignments(ctx, ctx.Arg(1), ctx.Arg(2), kaldiio.IntVectorCodec,
						func(key string, ali []int32) (kaldiio.IntVector, error) {
							p, ok, err := align.AliToPhones(tm, ali, *perFrame)
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

// aliToPhonesCtm writes "utt 1 start duration phone" lines to the
// wxfilename, as ali-to-phones --ctm-output (times accumulate in float, as
// Kaldi's BaseFloat).
func aliToPhonesCtm(ctx *kaldicmd.Context, tm *hmm.TransitionModel, frameShift float32) error {
	sr, err := kaldiio.OpenSequentialReader(ctx.Arg(1), kaldiio.IntVectorCodec, tableStreams(ctx)...)
	if err != nil {
		return kaldicmd.Exit(decoderFailure, err)
	}
	defer sr.Close()
	out, err := kaldiio.OpenOutput(ctx.Arg(2), tableStreams(ctx)...)
	if err != nil {
		return kaldicmd.Exit(decoderFailure, err)
	}
	w := out.Writer()
	done := 0
	for sr.Next() {
		key := sr.Key()
		split, _, err := align.SplitToPhones(tm, sr.Value())
		if err != nil {
			ctx.Warn("%s: %v", key, err)
			continue
		}
		start := float32(0)
		for _, p := range split {
			dur := frameShift * float32(len(p))
			w.WriteString(fmt.Sprintf("%s 1 %s %s %d\n", key, hmm.FormatG6(float64(start)), hmm.FormatG6(float64(dur)), tm.TransitionIDToPhone(p[0])))
			start += dur
		}
		done++
	}
	if err := sr.Err(); err != nil {
		out.Abort()
		return kaldicmd.Exit(decoderFailure, err)
	}
	if err := out.Close(); err != nil {
		return kaldicmd.Exit(decoderFailure, err)
	}
	ctx.Log("Done %d utterances.", done)
	return nil
}
