package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/align"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "convert-ali",
		Summary:     "Convert alignments from one decision-tree/model to another",
		Description: "Convert alignments from one decision-tree/model to another",
		ArgsUsage:   "<old-model> <new-model> <new-tree> <old-alignments-rspecifier> <new-alignments-wspecifier>",
		Examples:    []string{"strode convert-ali old/final.mdl new/0.mdl new/tree ark:old/ali.1 ark:new/ali.1"},
		MinArgs:     5,
		MaxArgs:     5,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			subsampling := fs.Int("frame-subsampling-factor", 1, "Can be used in converting alignments to reduced frame rates (only 1 is supported by strode).")
			reorder := fs.Bool("reorder", true, "True if you want the converted alignments to be 'reordered' versus the way they appear in the HmmTopology object")
			repeatFrames := fs.Bool("repeat-frames", false, "Only relevant when frame-subsampling-factor != 1.  If true, repeat frames of alignment by 'frame-subsampling-factor' after alignment conversion, to keep the alignment the same length as the input alignment.")
			phoneMap := fs.String("phone-map", "", "File name containing old->new phone mapping (each line is: old-integer-id new-integer-id)")
			return func(ctx *kaldicmd.Context) error {
				fail := func(err error) error { return kaldicmd.Exit(decoderFailure, err) }
				if *subsampling != 1 {
					return fail(fmt.Errorf("--frame-subsampling-factor=%d: strode converts alignments at the same frame rate only", *subsampling))
				}
				_ = *repeatFrames // only relevant with subsampling
				opts := align.ConvertAlignmentOptions{Reorder: *reorder}
				if *phoneMap != "" {
					m, err := tree.ReadPhoneMap(*phoneMap, tableStreams(ctx)...)
					if err != nil {
						return fail(err)
					}
					opts.PhoneMap = m
				}
				oldTM, err := readModelTM(ctx, ctx.Arg(0))
				if err != nil {
					return fail(err)
				}
				newTM, err := readModelTM(ctx, ctx.Arg(1))
				if err != nil {
					return fail(err)
				}
				ctxDep, err := tree.Read(ctx.Arg(2))
				if err != nil {
					return fail(err)
				}
				conv, err := align.NewAlignmentConverter(oldTM, newTM, ctxDep, opts)
				if err != nil {
					return fail(err)
				}
				done, failed, err := mapTable(ctx, ctx.Arg(3), kaldiio.IntVectorCodec, ctx.Arg(4), kaldiio.IntVectorCodec,
					func(key string, ali kaldiio.IntVector) (kaldiio.IntVector, error) {
						out, err := conv.Convert(ali)
						if errors.Is(err, align.ErrBadAlignment) {
							ctx.Warn("Could not convert alignment for key %s (possibly truncated alignment?)", key)
							return nil, errSkipped
						}
						if err != nil {
							return nil, fmt.Errorf("utterance %s: %w", key, err)
						}
						return out, nil
					})
				ctx.Log("Succeeded converting alignments for %d files, failed for %d", done, failed)
				if err != nil {
					return fail(err)
				}
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
