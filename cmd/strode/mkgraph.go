package main

import (
	"flag"

	"github.com/strode-asr/strode/decoder/mkgraph"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "mkgraph",
		Summary: "Build the decoding graph HCLG.fst from a lang directory and a model (utils/mkgraph.sh)",
		Description: "Build HCLG.fst as Kaldi's utils/mkgraph.sh does: L_disambig∘G determinized (log semiring),\n" +
			"minimized and pushed, composed with the context transducer of the tree (identity for monophone trees)\n" +
			"and the HMM transducer,\n" +
			"determinized, disambiguation symbols and local epsilons removed, minimized, self-loops added.\n" +
			"Reads <lang-dir>/{L_disambig.fst,G.fst,words.txt,oov.txt,phones/disambig.int} and\n" +
			"<model-dir>/{final.mdl,tree}; writes <graph-dir>/{HCLG.fst,words.txt,phones.txt,phones/,num_pdfs,disambig_tid.int}.\n" +
			"--grammar=one-word or word-loop generates G over words.txt, --grammar=sentences:FILE a fixed grammar\nof FILE's sentences, instead of reading G.fst.",
		ArgsUsage: "<lang-dir> <model-dir> <graph-dir>",
		Examples: []string{
			"strode mkgraph data/lang_test exp/mono exp/mono/graph",
			"strode mkgraph --grammar=one-word data/lang exp/mono exp/mono/graph_onedigit",
		},
		MinArgs: 3,
		MaxArgs: 3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			opt := mkgraph.DefaultMkGraphOptions()
			opt.Register(fs)
			var gopt mkgraph.GrammarOptions
			gopt.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				_, err := mkgraph.MakeGraphDir(ctx.Arg(0), ctx.Arg(1), ctx.Arg(2), opt, gopt, ctx.Log)
				return err
			}
		},
	})
}
