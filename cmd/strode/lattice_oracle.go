package main

import (
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-oracle",
		Summary:     "Oracle WER: the path of each lattice with the fewest word errors against the reference",
		Description: "Finds the path having the smallest edit-distance between two\nlattices. For efficiency put the smallest lattices first (for\nexample reference strings).\n\nNote the --write-lattices option by which you can write out the\noptimal path as a lattice.\nNote: you can use this program to compute the n-best oracle WER by\nfirst piping the input lattices through lattice-to-nbest and then\nnbest-to-lattice.",
		ArgsUsage:   "<test-lattice-rspecifier> <reference-rspecifier> <transcriptions-wspecifier> [<edit-distance-wspecifier>]",
		Examples:    []string{"strode lattice-oracle ark:lat.1 'ark:sym2int.pl -f 2- data/lang/words.txt <data/test/text|' ark,t:-"},
		MinArgs:     3,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			var o lattice.OracleOptions
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				wordSyms, wildList, latsOut := o.WordSymbolTable, o.WildcardSymbolsList, o.WriteLattices
				var syms *fst.SymbolTable
				if wordSyms != "" {
					var err error
					if syms, err = fst.ReadSymbolTableFile(wordSyms); err != nil {
						return fmt.Errorf("Could not read symbol table from file %s: %w", wordSyms, err)
					}
				}
				wildcards := map[int32]bool{}
				if wildList != "" {
					ctx.Warn("--wildcard-symbols-list option deprecated.")
					if err := o.Validate(); err != nil {
						return err
					}
					in, err := kaldiio.OpenInput(wildList, tableStreams(ctx)...)
					if err != nil {
						return err
					}
					text, err := readAllString(in)
					if err != nil {
						return err
					}
					for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
						f := strings.Fields(line)
						if len(f) != 1 {
							return fmt.Errorf("Bad line in symbol list: %s, file is: %s", line, wildList)
						}
						k, ok := syms.Key(f[0])
						if !ok {
							return fmt.Errorf("Can't find symbol in symbol table: %s, file is: %s", line, wildList)
						}
						wildcards[int32(k)] = true
					}
				} else if err := o.Wildcards(wildcards); err != nil {
					return err
				}
				src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.CompactLatticeCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer src.Close()
				refs, err := kaldiio.OpenRandomAccessReader(ctx.Arg(1), kaldiio.IntVectorCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				defer refs.Close()
				tras, err := openOptionalWriter(ctx, ctx.Arg(2), kaldiio.IntVectorCodec)
				if err != nil {
					return err
				}
				defer tras.Abort()
				dists, err := openOptionalWriter(ctx, ctx.Arg(3), kaldiio.Int32Codec)
				if err != nil {
					return err
				}
				defer dists.Abort()
				lats, err := openOptionalWriter(ctx, latsOut, lattice.CompactLatticeCodec)
				if err != nil {
					return err
				}
				defer lats.Abort()
				done, fail := 0, 0
				var totCorr, totSub, totIns, totDel, totWords int
				for src.Next() {
					key, clat := src.Key(), src.Value()
					fmt.Fprintf(ctx.Stderr, "Lattice %s read.\n", key)
					ok, err := refs.HasKey(key)
					if err != nil {
						return err
					}
					if !ok {
						ctx.Warn("No reference present for utterance %s", key)
						fail++
						continue
					}
					ref, err := refs.Value(key)
					if err != nil {
						return err
					}
					res, err := clat.Oracle(ref, wildcards)
					if err != nil {
						ctx.Warn("Best-path failed for key %s", key)
						fail++
						done++
						continue
					}
					if err := dists.Write(key, int32(res.Err)); err != nil {
						return err
					}
					ctx.Log("%%WER %s [ %d / %d, %d insertions, %d deletions, %d sub ]", fmtG64(100*float64(res.Err)/float64(res.NumWords)), res.Err, res.NumWords, res.Ins, res.Del, res.Sub)
					totCorr, totSub, totIns, totDel, totWords = totCorr+res.Correct, totSub+res.Sub, totIns+res.Ins, totDel+res.Del, totWords+res.NumWords
					ctx.Log("For utterance %s, best cost %d", key, res.Err)
					if err := tras.Write(key, res.Words); err != nil {
						return err
					}
					if syms != nil {
						var b strings.Builder
						b.WriteString(key + " (oracle) ")
						for _, w := range res.Words {
							s, ok := syms.Symbol(int64(w))
							if !ok {
								return fmt.Errorf("Word-id %d not in symbol table.", w)
							}
							b.WriteString(s + " ")
						}
						b.WriteString("\n" + key + " (reference) ")
						for _, w := range ref {
							s, ok := syms.Symbol(int64(w))
							if !ok {
								return fmt.Errorf("Word-id %d not in symbol table.", w)
							}
							b.WriteString(s + " ")
						}
						fmt.Fprintln(ctx.Stderr, b.String())
					}
					if latsOut != "" {
						if p := lattice.OraclePath(&clat, res.Words, wildcards); p != nil {
							if err := lats.Write(key, *p); err != nil {
								return err
							}
						} else {
							ctx.Warn("Failed to find the oracle path in the original lattice: %s", key)
						}
					}
					done++
				}
				if err := src.Err(); err != nil {
					return err
				}
				for _, c := range []func() error{tras.Close, dists.Close, lats.Close} {
					if err := c(); err != nil {
						return err
					}
				}
				totErr := totSub + totDel + totIns
				ctx.Log("Overall %%WER %s [ %d / %d, %d insertions, %d deletions, %d substitutions ]", fmtG64(100*float64(totErr)/float64(totWords)), totErr, totWords, totIns, totDel, totSub)
				ctx.Log("Scored %d lattices, %d not present in ref.", done, fail)
				return nil
			}
		},
	})
}

// fmtG64 prints a double as a default C++ stream does (6 significant
// digits; "nan" and "inf" as glibc spells them).
func fmtG64(f float64) string {
	s := strconv.FormatFloat(f, 'g', 6, 64)
	switch s {
	case "NaN":
		return "-nan"
	case "+Inf":
		return "inf"
	}
	return s
}

func readAllString(in *kaldiio.Input) (string, error) {
	defer in.Close()
	b, err := io.ReadAll(in.Reader())
	return string(b), err
}
