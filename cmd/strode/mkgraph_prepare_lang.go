package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/mkgraph"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "prepare-lang",
		Summary: "Make a lang directory (phones, words, topo, L.fst, L_disambig.fst) from a lexicon",
		Description: "Make a lang directory from a dictionary directory, as Kaldi's utils/prepare_lang.sh\n" +
			"(position-dependent phones _B _I _E _S by default, as Kaldi's; --position-dependent-phones=false\n" +
			"turns them off): phones.txt, words.txt, topo, L.fst, L_disambig.fst with\n" +
			"disambiguation symbols, oov.txt/oov.int and phones/. <dict-dir> holds lexicon.txt or lexiconp.txt,\n" +
			"silence_phones.txt, nonsilence_phones.txt, optional_silence.txt [, extra_questions.txt];\n" +
			"builtin:digits and builtin:digits-no-oh name the built-in digits dictionary.\n" +
			"<tmp-dir> is accepted for compatibility and not used. The dict dir is first checked as\n" +
			"validate-dict-dir does (exit 1 with every problem's file and line), as prepare_lang.sh runs\n" +
			"validate_dict_dir.pl; --skip-validation skips that. With --mono-dir, also writes the\n" +
			"monophone tree and transition model (tree, final.mdl) as Kaldi files.",
		ArgsUsage: "<dict-dir> <oov-word> <tmp-dir> <lang-dir>",
		Examples: []string{
			"strode prepare-lang data/local/dict '<UNK>' data/local/lang data/lang",
			"strode prepare-lang --mono-dir=exp/mono0 builtin:digits '<SIL>' data/local/lang data/lang",
		},
		MinArgs: 4,
		MaxArgs: 4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			opt := mkgraph.DefaultLangOptions()
			opt.Register(fs)
			monoDir := ""
			fs.StringVar(&monoDir, "mono-dir", monoDir, "If set, write the monophone tree and transition model (tree, final.mdl) here")
			return func(ctx *kaldicmd.Context) error {
				lang, err := mkgraph.PrepareLangDir(ctx.Arg(0), ctx.Arg(1), ctx.Arg(3), monoDir, opt)
				var bad *mkgraph.DictDirError
				if errors.As(err, &bad) {
					// prepare_lang.sh's own words, then the validator's problems.
					return kaldicmd.Exit(1, fmt.Errorf("*Error validating directory %s* (--skip-validation builds anyway)\n%w", ctx.Arg(0), err))
				}
				if err != nil {
					return err
				}
				ctx.Log("Wrote %s: %d phones, %d words, %d disambiguation symbols; L.fst %d states",
					ctx.Arg(3), lang.Phones.Len()-1-len(lang.PhoneDisambig), lang.Words.Len()-4, len(lang.PhoneDisambig), lang.L.NumStates())
				return nil
			}
		},
	})
}
