package main

import (
	"flag"
	"io"
	"os"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "sym2int",
		Summary: "Map words (or phones) of text to integer ids, like utils/sym2int.pl",
		Description: "Maps the symbols of each line to integers with a symbol table (words.txt,\n" +
			"phones.txt), as Kaldi's utils/sym2int.pl: --map-oov maps unknown symbols\n" +
			"(e.g. to the lang dir's oov.txt, \"<UNK>\"); without it an unknown symbol is an\n" +
			"error naming the utterance and line. Reads standard input without input files.",
		ArgsUsage: "<symtab> [<input-file> ...]",
		Examples:  []string{"strode sym2int --map-oov='<UNK>' --field=2- data/lang/words.txt data/train/text > train.tra"},
		MinArgs:   1,
		MaxArgs:   -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			oov := fs.String("map-oov", "", "Symbol (or integer id, written as it is: the lang's oov.int) to which unknown symbols are mapped (default: unknown symbols are errors)")
			field := fs.String("field", "1-", "Fields to map, as sym2int.pl's -f (e.g. 2- for Kaldi text files)")
			return func(ctx *kaldicmd.Context) error {
				table, err := fst.ReadSymbolTableFile(ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				fr, err := fst.ParseFieldRange(*field)
				if err != nil {
					return kaldicmd.Exit(1, err)
				}
				m := &fst.SymbolMapper{Table: table, OOV: *oov, Fields: fr}
				inputs := ctx.Args()[1:]
				if len(inputs) == 0 {
					inputs = []string{"-"}
				}
				for _, in := range inputs {
					var r io.Reader = ctx.Stdin
					if in != "-" {
						fh, err := os.Open(in)
						if err != nil {
							return kaldicmd.Exit(decoderFailure, err)
						}
						defer fh.Close()
						r = fh
					}
					if err := m.MapText(r, ctx.Stdout, in); err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
				}
				if m.NumOOV > 0 {
					ctx.Warn("Replaced %d instances of OOVs with %s", m.NumOOV, *oov)
				}
				return nil
			}
		},
	})
}
