package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "nbest-to-linear",
		Summary:     "Linear lattices (n-best entries) to alignments, transcriptions and LM/acoustic costs",
		Description: "Takes as input lattices/n-bests which must be linear (single path);\nconvert from lattice to up to 4 archives containing transcriptions, alignments,\nand acoustic and LM costs (note: use ark:/dev/null for unwanted outputs)",
		ArgsUsage:   "<nbest-rspecifier> <alignments-wspecifier> [<transcriptions-wspecifier> [<lm-cost-wspecifier> [<ac-cost-wspecifier>]]]",
		Examples:    []string{"strode lattice-to-nbest --n=10 ark:1.lats ark:- | strode nbest-to-linear ark:- ark,t:1.ali ark,t:1.tra"},
		MinArgs:     2,
		MaxArgs:     5,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			return func(ctx *kaldicmd.Context) error {
				src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer src.Close()
				alis, err := openOptionalWriter(ctx, ctx.Arg(1), kaldiio.IntVectorCodec)
				if err != nil {
					return err
				}
				defer alis.Abort()
				tras, err := openOptionalWriter(ctx, ctx.Arg(2), kaldiio.IntVectorCodec)
				if err != nil {
					return err
				}
				defer tras.Abort()
				lmc, err := openOptionalWriter(ctx, ctx.Arg(3), kaldiio.FloatCodec)
				if err != nil {
					return err
				}
				defer lmc.Abort()
				acc, err := openOptionalWriter(ctx, ctx.Arg(4), kaldiio.FloatCodec)
				if err != nil {
					return err
				}
				defer acc.Abort()
				done, failed := 0, 0
				for src.Next() {
					key, clat := src.Key(), src.Value()
					ali, words, w, err := clat.LinearSequence()
					if err != nil {
						ctx.Warn("Lattice/nbest for key %s had wrong format: note, this program expects input with one path, e.g. from lattice-to-nbest.", key)
						failed++
						continue
					}
					for _, e := range []error{alis.Write(key, ali), tras.Write(key, words), lmc.Write(key, w.Graph), acc.Write(key, w.Acoustic)} {
						if e != nil {
							return e
						}
					}
					done++
				}
				if err := src.Err(); err != nil {
					return err
				}
				for _, c := range []func() error{alis.Close, tras.Close, lmc.Close, acc.Close} {
					if err := c(); err != nil {
						return err
					}
				}
				ctx.Log("Done %d n-best entries, %d had errors.", done, failed)
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
