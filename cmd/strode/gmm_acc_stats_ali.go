package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-acc-stats-ali",
		Summary:     "Accumulate stats for GMM training",
		Description: "Accumulate stats for GMM training (from alignments: Viterbi statistics).",
		ArgsUsage:   "<model-in> <feature-rspecifier> <alignments-rspecifier> <stats-out>",
		Examples:    []string{"strode gmm-acc-stats-ali 1.mdl scp:train.scp ark:1.ali 1.acc"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			return func(ctx *kaldicmd.Context) error {
				fail := func(err error) error { return kaldicmd.Exit(decoderFailure, err) }
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return fail(err)
				}
				accs := gmm.Accs{Transitions: m.Trans.InitStats(), GMM: *gmm.NewAccumAmDiagGmm(&m.AM, gmm.FlagAll)}
				feats, err := kaldiio.OpenSequentialReader(ctx.Arg(1), kaldiio.MatrixCodec, tableStreams(ctx)...)
				if err != nil {
					return fail(err)
				}
				defer feats.Close()
				alis, err := kaldiio.OpenRandomAccessReader(ctx.Arg(2), kaldiio.IntVectorCodec, tableStreams(ctx)...)
				if err != nil {
					return fail(err)
				}
				defer alis.Close()
				done, noAli, other := 0, 0, 0
				totLike := 0.0
				for feats.Next() {
					key := feats.Key()
					ok, err := alis.HasKey(key)
					if err != nil {
						return fail(err)
					}
					if !ok {
						ctx.Warn("No alignment for utterance %s", key)
						noAli++
						continue
					}
					ali, err := alis.Value(key)
					if err != nil {
						return fail(err)
					}
					x := feats.Value()
					if len(ali) != x.Rows {
						ctx.Warn("Alignments has wrong size %d vs. %d", len(ali), x.Rows)
						other++
						continue
					}
					if x.Cols != m.AM.Dim {
						return fail(fmt.Errorf("utterance %s: features have dimension %d, the model %d", key, x.Cols, m.AM.Dim))
					}
					if err := m.Trans.CheckAlignment(ali); err != nil {
						return fail(fmt.Errorf("utterance %s: alignment does not fit model %s: %w", key, ctx.Arg(0), err))
					}
					like := 0.0
					for t, tid := range ali {
						pdf := m.Trans.TransitionIDToPdf(tid)
						accs.Transitions[tid]++
						like += float64(accs.GMM.AccumulateForGmm(&m.AM, x.Row(t), int(pdf), 1))
					}
					ctx.Vlog(2, "Average like for this file is %s over %d frames.", g6(like/float64(len(ali))), len(ali))
					totLike += like
					done++
					if done%50 == 0 {
						ctx.Log("Processed %d utterances; for utterance %s avg. like is %s over %d frames.", done, key, g6(like/float64(len(ali))), len(ali))
					}
				}
				if err := feats.Err(); err != nil {
					return fail(err)
				}
				// Features a permissive read skipped (each with its WARNING) are
				// errors too, so that the loss shows in the summary.
				other += feats.Skipped()
				ctx.Log("Done %d files, %d with no alignments, %d with other errors.", done, noAli, other)
				frames := accs.GMM.TotFrames
				ctx.Log("Overall avg like per frame (Gaussian only) = %s over %s frames.", g6(totLike/max(frames, 1)), g6(frames))
				if err := kaldiio.WriteObject(ctx.Arg(3), gmm.AccsCodec, *binary, &accs, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				ctx.Log("Written accs.")
				if done == 0 {
					return kaldicmd.Exit(1, fmt.Errorf("no utterances accumulated"))
				}
				return nil
			}
		},
	})
}
