package main

import (
	"flag"

	"github.com/strode-asr/strode/internal/atomicfile"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/mkgraph"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "arpa2fst",
		Summary: "Convert an ARPA back-off language model to the grammar FST G",
		Description: "Convert an ARPA format language model into an FST, as Kaldi's arpa2fst: one state per\n" +
			"history, back-off arcs reading --disambig-symbol (use #0 for mkgraph), </s> as final weight.\n" +
			"Words not in --read-symbol-table skip their n-grams (with a warning) unless --map-oov is set.",
		ArgsUsage: "<arpa-rxfilename> [<fst-out>]",
		Examples:  []string{"strode arpa2fst --disambig-symbol=#0 --read-symbol-table=data/lang/words.txt lm.arpa data/lang_test/G.fst"},
		MinArgs:   1,
		MaxArgs:   2,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			opt := mkgraph.DefaultArpaOptions()
			opt.Register(fs)
			readSyms, writeSyms := "", ""
			fs.StringVar(&readSyms, "read-symbol-table", readSyms, "Use the existing symbol table (words.txt)")
			fs.StringVar(&writeSyms, "write-symbol-table", writeSyms, "Write the generated symbol table to a file")
			return func(ctx *kaldicmd.Context) error {
				var words *fst.SymbolTable
				if readSyms != "" {
					var err error
					if words, err = fst.ReadSymbolTableFile(readSyms); err != nil {
						return err
					}
				}
				in, err := kaldiio.OpenInput(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer in.Close()
				g, syms, err := mkgraph.ArpaToFst(in.Reader(), ctx.Arg(0), words, opt, func(w string) { ctx.Warn("%s", w) })
				if err != nil {
					return err
				}
				out := ctx.Arg(1)
				if out == "" {
					out = "-"
				}
				if out == "-" {
					if err := fst.WriteVectorFst(ctx.Stdout, g); err != nil {
						return err
					}
				} else if err := fst.WriteFile(out, g); err != nil {
					return err
				}
				if writeSyms != "" {
					if err := writeSymbolsAtomic(writeSyms, syms); err != nil {
						return err
					}
				}
				ctx.Log("G: %d states, %d arcs", g.NumStates(), g.NumArcs())
				return nil
			}
		},
	})
}

// writeSymbolsAtomic writes a symbol table through a temporary file
// renamed into place.
func writeSymbolsAtomic(path string, syms *fst.SymbolTable) error {
	return atomicfile.Write(path, syms.WriteText)
}
