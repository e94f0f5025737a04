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
		Name:        "acc-tree-stats",
		Summary:     "Accumulate statistics for phonetic-context tree building",
		Description: "Accumulate statistics for phonetic-context tree building.",
		ArgsUsage:   "<model-in> <features-rspecifier> <alignments-rspecifier> [<tree-accs-out>]",
		Examples:    []string{"strode acc-tree-stats 1.mdl scp:train.scp ark:1.ali 1.tacc"},
		MinArgs:     3,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			o := align.DefaultAccumulateTreeStatsOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				opts, err := o.Resolve(tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				tm, err := readModelTM(ctx, ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				acc, err := align.NewAccumulator(tm, opts)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				feats, err := kaldiio.OpenSequentialReader(ctx.Arg(1), kaldiio.MatrixCodec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				defer feats.Close()
				alis, err := kaldiio.OpenRandomAccessReader(ctx.Arg(2), kaldiio.IntVectorCodec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				defer alis.Close()
				done, noAli, other := 0, 0, 0
				for feats.Next() {
					key := feats.Key()
					ok, err := alis.HasKey(key)
					if err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					if !ok {
						noAli++
						continue
					}
					ali, err := alis.Value(key)
					if err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					m := feats.Value()
					if len(ali) != m.Rows {
						ctx.Warn("Alignments has wrong size %d vs. %d", len(ali), m.Rows)
						other++
						continue
					}
					if err := acc.Accumulate(ali, &m); err != nil {
						if errors.Is(err, align.ErrBadAlignment) {
							// Kaldi warns and counts the utterance as done.
							ctx.Warn("AccumulateTreeStats: alignment appears to be bad, not using it (utterance %s)", key)
						} else {
							return kaldicmd.Exit(decoderFailure, fmt.Errorf("utterance %s: %w", key, err))
						}
					}
					done++
					if done%1000 == 0 {
						ctx.Log("Processed %d utterances.", done)
					}
				}
				if err := feats.Err(); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				stats := acc.Stats()
				if err := kaldiio.WriteObject(ctx.Arg(3), tree.BuildTreeStatsCodec, *binary, &stats, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				other += feats.Skipped() // lost to a permissive read, each with its WARNING
				ctx.Log("Accumulated stats for %d files, %d failed due to no alignment, %d failed for other reasons.", done, noAli, other)
				ctx.Log("Number of separate stats (context-dependent states) is %d", len(stats))
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
