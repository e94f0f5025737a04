package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/align"
	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "align-equal-compiled",
		Summary: "Write equally spaced alignments (flat start) from training graphs",
		Description: "Write an equally spaced alignment (for getting training started)\n" +
			"Uses the same random path through each graph as Kaldi (seeded by the utterance key).",
		ArgsUsage: "<graphs-rspecifier> <features-rspecifier> <alignments-wspecifier>",
		Examples:  []string{"strode align-equal-compiled ark:1.fsts scp:train.scp ark:equal.ali"},
		MinArgs:   3,
		MaxArgs:   3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			_ = fs.Bool("binary", true, "Write output in binary mode")
			return func(ctx *kaldicmd.Context) error {
				graphs, err := kaldiio.OpenSequentialReader(ctx.Arg(0), fst.Codec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				defer graphs.Close()
				feats, err := kaldiio.OpenRandomAccessReader(ctx.Arg(1), kaldiio.MatrixCodec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				defer feats.Close()
				aw, err := kaldiio.OpenTableWriter(ctx.Arg(2), kaldiio.IntVectorCodec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				done, noFeat, failed := 0, 0, 0
				rep := utteranceProgress(ctx, "aligning", ctx.Arg(0))
				defer rep.Finish()
				for graphs.Next() {
					rep.Add(1)
					key := graphs.Key()
					ok, err := feats.HasKey(key)
					if err != nil {
						aw.Abort()
						return kaldicmd.Exit(decoderFailure, err)
					}
					if !ok {
						ctx.Warn("No features for utterance %s", key)
						noFeat++
						continue
					}
					m, err := feats.Value(key)
					if err != nil {
						aw.Abort()
						return kaldicmd.Exit(decoderFailure, err)
					}
					if m.Rows == 0 {
						ctx.Warn("Zero-length utterance: %s", key)
						failed++
						continue
					}
					g := graphs.Value()
					ali, err := align.EqualAlign(&g, m.Rows, align.StringHash(key))
					if err != nil {
						ctx.Warn("AlignEqual: did not align utterance %s: %v", key, err)
						failed++
						continue
					}
					if err := aw.Write(key, ali); err != nil {
						aw.Abort()
						return kaldicmd.Exit(decoderFailure, err)
					}
					done++
				}
				rep.Finish()
				if err := graphs.Err(); err != nil {
					aw.Abort()
					return kaldicmd.Exit(decoderFailure, err)
				}
				if err := aw.Close(); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				if done != 0 && noFeat == 0 && failed == 0 {
					ctx.Log("Success: done %d utterances.", done)
				} else {
					ctx.Warn("Computed %d alignments; %d lacked features, %d had other errors.", done, noFeat, failed)
				}
				if done == 0 {
					return kaldicmd.Exit(1, fmt.Errorf("no alignments computed"))
				}
				return nil
			}
		},
	})
}
