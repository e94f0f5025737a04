package main

import (
	"bufio"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "int2sym",
		Summary: "Map integer ids of text to words (or phones), like utils/int2sym.pl",
		Description: "Maps the integers of the chosen fields of each line to their symbols in a symbol table\n" +
			"(words.txt, phones.txt), as Kaldi's utils/int2sym.pl -f: every field is written followed by a\n" +
			"space, as int2sym.pl writes it. An id missing from the table, or a field that is not an integer,\n" +
			"is an error naming the file and line. Reads standard input without input files.",
		ArgsUsage: "<symtab> [<input-file> ...]",
		Examples:  []string{"strode lattice-best-path ark:lat.1 ark,t:- | strode int2sym --field=2- data/lang/words.txt > hyp.txt"},
		MinArgs:   1,
		MaxArgs:   -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			field := fs.String("field", "1-", "Fields to map, as int2sym.pl's -f (e.g. 2- for Kaldi text files)")
			return func(ctx *kaldicmd.Context) error {
				table, err := fst.ReadSymbolTableFile(ctx.Arg(0))
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				fr, err := fst.ParseFieldRange(*field)
				if err != nil {
					return kaldicmd.Exit(1, err)
				}
				inputs := ctx.Args()[1:]
				if len(inputs) == 0 {
					inputs = []string{"-"}
				}
				w := bufio.NewWriter(ctx.Stdout)
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
					if err := int2sym(table, fr, r, w, in, ctx.Arg(0)); err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
				}
				return w.Flush()
			}
		},
	})
}

// int2sym writes every line of r with the fields in fr mapped from ids to
// symbols, each field followed by a space (int2sym.pl's output).
func int2sym(table *fst.SymbolTable, fr fst.FieldRange, r io.Reader, w *bufio.Writer, name, symtab string) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for line := 1; sc.Scan(); line++ {
		for i, f := range strings.Fields(sc.Text()) {
			pos := i + 1
			if pos >= fr.First && (fr.Last == 0 || pos <= fr.Last) {
				id, err := strconv.ParseInt(f, 10, 64)
				if err != nil || id < 0 {
					return fmt.Errorf("%s line %d: field %d %q is not an integer id", name, line, pos, f)
				}
				sym, ok := table.Symbol(id)
				if !ok {
					return fmt.Errorf("%s line %d: id %d is not in the symbol table %s", name, line, id, symtab)
				}
				f = sym
			}
			w.WriteString(f)
			w.WriteByte(' ')
		}
		w.WriteByte('\n')
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	return nil
}
