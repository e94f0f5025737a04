package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-to-nbest",
		Summary:     "N best paths of lattices, written as linear lattices keyed <utt>-1 … <utt>-n",
		Description: "Work out N-best paths in lattices and write out as FSTs\nNote: only guarantees distinct word sequences if distinct paths in\ninput lattices had distinct word-sequences (this will not be true if\nyou produced lattices with --determinize-lattice=false, i.e. state-level\nlattices).",
		ArgsUsage:   "<lattice-rspecifier> <lattice-wspecifier>",
		Examples:    []string{"strode lattice-to-nbest --acoustic-scale=0.1 --n=10 ark:1.lats ark:nbest.lats"},
		MinArgs:     2,
		MaxArgs:     2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := lattice.DefaultNbestOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				if err := o.Validate(); err != nil {
					return err
				}
				src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer src.Close()
				out, err := kaldiio.OpenTableWriter(ctx.Arg(1), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer out.Abort()
				done, paths := 0, 0
				for src.Next() {
					key, clat := src.Key(), src.Value()
					nbest, err := o.NBest(&clat)
					if err != nil {
						return fmt.Errorf("lattice for key %s: %w", key, err)
					}
					if len(nbest) == 0 {
						ctx.Warn("Possibly empty lattice for utterance-id %s(no N-best entries)", key)
						continue
					}
					for k, p := range nbest {
						if err := out.Write(fmt.Sprintf("%s-%d", key, k+1), *p); err != nil {
							return err
						}
					}
					done++
					paths += len(nbest)
				}
				if err := src.Err(); err != nil {
					return err
				}
				if err := out.Close(); err != nil {
					return err
				}
				ctx.Log("Done applying N-best algorithm to %d lattices with n = %d, average actual #paths is %s", done, o.N, fmtG(float32(float64(paths)/(float64(done)+1e-20))))
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
