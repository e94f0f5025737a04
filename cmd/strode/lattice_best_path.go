package main

import (
	"errors"
	"flag"
	"fmt"
	"strings"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-best-path",
		Summary:     "Best path through lattices, as word transcriptions and transition-id alignments",
		Description: "Generate 1-best path through lattices; output as transcriptions and alignments\nNote: if you want output as FSTs, use lattice-1best; if you want output\nwith acoustic and LM scores, use lattice-1best | nbest-to-linear",
		ArgsUsage:   "<lattice-rspecifier> [ <transcriptions-wspecifier> [ <alignments-wspecifier>] ]",
		Examples:    []string{"strode lattice-best-path --acoustic-scale=0.1 ark:1.lats 'ark,t:|int2sym.pl -f 2- words.txt > text' ark:1.ali"},
		MinArgs:     1,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := lattice.DefaultBestPathOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				wordSyms, latsOut := o.WordSymbolTable, o.WriteLattices
				var syms *fst.SymbolTable
				if wordSyms != "" {
					var err error
					if syms, err = fst.ReadSymbolTableFile(wordSyms); err != nil {
						return fmt.Errorf("Could not read symbol table from file %s: %w", wordSyms, err)
					}
				}
				src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer src.Close()
				words, err := openOptionalWriter(ctx, ctx.Arg(1), kaldiio.IntVectorCodec)
				if err != nil {
					return err
				}
				defer words.Abort()
				alis, err := openOptionalWriter(ctx, ctx.Arg(2), kaldiio.IntVectorCodec)
				if err != nil {
					return err
				}
				defer alis.Abort()
				lats, err := openOptionalWriter(ctx, latsOut, lattice.CompactLatticeCodec)
				if err != nil {
					return err
				}
				defer lats.Abort()
				ac, lm := float32(o.AcousticScale), float32(o.LMScale)
				done, failed := 0, 0
				var frames int64
				tot := lattice.One
				for src.Next() {
					key, v := src.Key(), src.Value()
					clat := &v
					clat.Scale(lattice.LatticeScale(lm, ac))
					best, err := clat.ShortestPath()
					var ali, wrd []int32
					var w lattice.Weight
					if err == nil {
						ali, wrd, w, err = best.LinearSequence()
					}
					if err != nil {
						ctx.Warn("Best-path failed for key %s", key)
						failed++
						continue
					}
					ctx.Log("For utterance %s, best cost %s + %s = %s over %d frames.", key, fmtG(w.Graph), fmtG(w.Acoustic), fmtG(w.Graph+w.Acoustic), len(ali))
					if err := words.Write(key, wrd); err != nil {
						return err
					}
					if err := alis.Write(key, ali); err != nil {
						return err
					}
					if syms != nil {
						var b strings.Builder
						b.WriteString(key + " ")
						for _, x := range wrd {
							s, ok := syms.Symbol(int64(x))
							if !ok {
								return fmt.Errorf("Word-id %d not in symbol table.", x)
							}
							b.WriteString(s + " ")
						}
						fmt.Fprintln(ctx.Stderr, b.String())
					}
					if latsOut != "" {
						if ac == 0 {
							return errors.New("You can't use zero acoustic scale and write best-path as FSTs (use a very small scale instead).")
						}
						best.Scale([2][2]float64{{1 / float64(lm), 0}, {0, 1 / float64(ac)}})
						if err := lats.Write(key, *best); err != nil {
							return err
						}
					}
					done++
					frames += int64(len(ali))
					tot = lattice.Times(tot, w)
				}
				if err := src.Err(); err != nil {
					return err
				}
				for _, c := range []func() error{words.Close, alis.Close, lats.Close} {
					if err := c(); err != nil {
						return err
					}
				}
				n := float32(frames)
				ctx.Log("Overall score per frame is %s = %s [graph] + %s [acoustic] over %d frames.", fmtG((tot.Graph+tot.Acoustic)/n), fmtG(tot.Graph/n), fmtG(tot.Acoustic/n), frames)
				ctx.Log("Done %d lattices, failed for %d", done, failed)
				if done == 0 {
					return kaldicmd.Exit(1, nil)
				}
				return nil
			}
		},
	})
}
