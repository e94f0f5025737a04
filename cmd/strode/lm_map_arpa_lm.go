package main

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/strode-asr/strode/decoder/lm"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "map-arpa-lm",
		Summary: "Map the words of an ARPA LM to integers or back (Kaldi's utils/map_arpa_lm.pl)",
		Description: "Reads an ARPA language model on stdin and maps its words into integers\n" +
			"(or, with --sym2int=false, integers into words), as Kaldi's utils/map_arpa_lm.pl:\n" +
			"n-grams with a word not in the symbol table are dropped (with a warning);\n" +
			"the header's counts are left as they are. Used before arpa-to-const-arpa.",
		ArgsUsage: "<vocab-file>",
		Examples:  []string{"gunzip -c lm.arpa.gz | strode map-arpa-lm data/lang/words.txt > lm.int.arpa"},
		MinArgs:   1,
		MaxArgs:   1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			sym2int := "true"
			fs.StringVar(&sym2int, "sym2int", sym2int, "If true, maps words to integers, otherwise maps integers to words.")
			return func(ctx *kaldicmd.Context) error {
				if sym2int != "true" && sym2int != "false" {
					return fmt.Errorf("Bad value for option --sym2int: %q", sym2int)
				}
				mapper, err := readMapper(ctx.Arg(0), sym2int == "true")
				if err != nil {
					return err
				}
				out := bufio.NewWriter(ctx.Stdout)
				n, err := lm.MapARPA(ctx.Stdin, out, "stdin", mapper, func(s string) { ctx.Warn("%s", s) })
				if err != nil {
					return err
				}
				if n > 0 {
					ctx.Warn("%d lines of the Arpa file contained OOVs and were not printed.", n)
				}
				return out.Flush()
			}
		},
	})
}

// readMapper reads a symbol table ("word id" lines) as map_arpa_lm.pl
// does: exactly two fields a line, no key twice.
func readMapper(path string, sym2int bool) (map[string]string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("Fail to open %s: %w", path, err)
	}
	m := map[string]string{}
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		col := strings.Fields(line)
		if len(col) != 2 {
			return nil, fmt.Errorf("%s:%d: bad line in mapper file %q (want \"word id\")", path, i+1, line)
		}
		k, v := col[0], col[1]
		if !sym2int {
			k, v = v, k
		}
		if _, dup := m[k]; dup {
			return nil, fmt.Errorf("%s:%d: duplicate entry %q", path, i+1, k)
		}
		m[k] = v
	}
	return m, nil
}
