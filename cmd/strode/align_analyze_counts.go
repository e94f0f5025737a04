package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/align"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "analyze-counts",
		Summary: "Compute element counts from an integer vector table (e.g. pdf counts for priors)",
		Description: "Computes element counts from integer vector table.\n" +
			"(e.g. get pdf-counts to estimate DNN-output priors for data analysis)\n" +
			"Half a count is added to every element so that none is zero, as Kaldi does.",
		ArgsUsage: "<alignments-rspecifier> <counts-wxfilname>",
		Examples:  []string{"strode analyze-counts ark:1.ali prior.counts", "strode analyze-counts --binary=false 'ark:ali-to-pdf final.mdl ark:1.ali ark:- |' counts.txt"},
		MinArgs:   2,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", false, "write in binary mode")
			_ = fs.String("symbol-table", "", "Read symbol table for display of counts (accepted; the table is not printed)")
			countsDim := fs.Int("counts-dim", 0, "Output dimension of the counts, a hint for dimension auto-detection.")
			frameWeights := fs.String("frame-weights", "", "Per-frame weights (counting weighted frames).")
			uttWeights := fs.String("utt-weights", "", "Per-utterance weights (counting weighted frames).")
			return func(ctx *kaldicmd.Context) error {
				if *countsDim < 0 {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("--counts-dim=%d must not be negative", *countsDim))
				}
				sr, err := kaldiio.OpenSequentialReader(ctx.Arg(0), kaldiio.IntVectorCodec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				defer sr.Close()
				var fw *kaldiio.RandomAccessReader[kaldiio.Vector]
				if *frameWeights != "" {
					if fw, err = kaldiio.OpenRandomAccessReader(*frameWeights, kaldiio.VectorCodec, tableStreams(ctx)...); err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					defer fw.Close()
				}
				var uw *kaldiio.RandomAccessReader[float32]
				if *uttWeights != "" {
					if uw, err = kaldiio.OpenRandomAccessReader(*uttWeights, kaldiio.FloatCodec, tableStreams(ctx)...); err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					defer uw.Close()
				}
				counts := align.NewCounts(*countsDim)
				done, skipped := 0, 0
				for sr.Next() {
					key := sr.Key()
					uttW := 1.0
					if uw != nil {
						w, err := uw.Value(key)
						if err != nil {
							ctx.Warn("%s, missing per-utterance weight", key)
							skipped++
							continue
						}
						uttW = float64(w)
					}
					var frameW []float32
					if fw != nil {
						v, err := fw.Value(key)
						if err != nil {
							ctx.Warn("%s, missing per-frame weights", key)
							skipped++
							continue
						}
						frameW = v
					}
					if err := counts.Add(sr.Value(), uttW, frameW); err != nil {
						return kaldicmd.Exit(decoderFailure, fmt.Errorf("utterance %s: %w", key, err))
					}
					done++
				}
				if err := sr.Err(); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				for _, i := range counts.Zero() {
					ctx.Warn("Zero count for label %d, this is suspicious.", i)
				}
				out := kaldiio.DoubleVector(counts.Smoothed())
				if err := kaldiio.WriteObject(ctx.Arg(1), kaldiio.DoubleVectorCodec, *binary, &out, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				ctx.Log("Summed %d int32 vectors to counts, skipped %d vectors.", done, skipped)
				ctx.Log("Counts written to %s", ctx.Arg(1))
				return nil
			}
		},
	})
}
