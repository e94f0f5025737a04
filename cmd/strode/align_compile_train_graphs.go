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
		Name:    "compile-train-graphs",
		Summary: "Create training graphs (without transition probabilities, by default)",
		Description: "Creates training graphs (without transition-probabilities, by default)\n" +
			"from a tree, a model, the lexicon L.fst and integer transcripts.",
		ArgsUsage: "<tree-in> <model-in> <lexicon-fst-in> <transcriptions-rspecifier> <graphs-wspecifier>",
		Examples: []string{
			"strode compile-train-graphs --read-disambig-syms=data/lang/phones/disambig.int tree 1.mdl lex.fst ark:train.tra ark:graphs.fsts",
		},
		MinArgs: 5,
		MaxArgs: 5,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			opt := align.DefaultTrainingGraphOptions()
			opt.Register(fs)
			disambigRx := fs.String("read-disambig-syms", "", "File containing list of disambiguation symbols in phone symbol table")
			_ = fs.Int("batch-size", 250, "Number of FSTs to compile at a time (more -> faster but uses more memory); accepted for compatibility")
			return func(ctx *kaldicmd.Context) error {
				comp, _, err := openGraphCompiler(ctx, *disambigRx, opt)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				sr, err := kaldiio.OpenSequentialReader(ctx.Arg(3), kaldiio.IntVectorCodec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				defer sr.Close()
				tw, err := kaldiio.OpenTableWriter(ctx.Arg(4), fst.Codec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				done, failed := 0, 0
				for sr.Next() {
					key := sr.Key()
					g, err := comp.CompileText(sr.Value())
					if err != nil {
						ctx.Warn("Empty decoding graph for utterance %s: %v", key, err)
						failed++
						continue
					}
					if err := tw.Write(key, *g); err != nil {
						tw.Abort()
						return kaldicmd.Exit(decoderFailure, err)
					}
					done++
				}
				if err := sr.Err(); err != nil {
					tw.Abort()
					return kaldicmd.Exit(decoderFailure, err)
				}
				if err := tw.Close(); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				ctx.Log("compile-train-graphs: succeeded for %d graphs, failed for %d", done, failed)
				if done == 0 {
					return kaldicmd.Exit(1, fmt.Errorf("no graphs compiled"))
				}
				return nil
			}
		},
	})
}
