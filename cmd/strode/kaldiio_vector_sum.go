package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "vector-sum",
		Summary: "Add vectors (e.g. weights, transition-accs; speaker vectors)",
		Description: "Add vectors (e.g. weights, transition-accs; speaker vectors)\n" +
			"If you need to scale the inputs, use vector-scale on the inputs\n\n" +
			"Type one usage:\n" +
			" vector-sum [options] <vector-in-rspecifier1> [<vector-in-rspecifier2> <vector-in-rspecifier3> ...] <vector-out-wspecifier>\n" +
			"  e.g.: vector-sum ark:1.weights ark:2.weights ark:combine.weights\n" +
			"  This usage supports the --binary option, which is ignored as the output table takes its own\n" +
			"Type two usage (sums a single table input to produce a single output):\n" +
			" vector-sum [options] <vector-in-rspecifier> <vector-out-wxfilename>\n" +
			"  e.g.: vector-sum --binary=false vecs.ark sum.vec\n" +
			"Type three usage:\n" +
			" vector-sum [options] <vector-in-rxfilename1> [<vector-in-rxfilename2> ...] <vector-out-wxfilename>\n" +
			"  e.g.: vector-sum --binary=false 1.vec 2.vec 3.vec sum.vec\n" +
			"See also: copy-vector, matrix-sum-rows",
		ArgsUsage: "<vector-in-rspecifier1|rxfilename1> [...] <vector-out-wspecifier|wxfilename>",
		Examples:  []string{"strode vector-sum --binary=false ark:- prior_counts"},
		MinArgs:   2,
		MaxArgs:   -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := kaldiio.DefaultVectorSumOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				args := ctx.Args()
				ins, out := args[:len(args)-1], args[len(args)-1]
				warn := func(f string, a ...any) { ctx.Warn(f, a...) }
				inTable := kaldiio.IsRspecifier(ins[0])
				for _, in := range ins[1:] {
					if kaldiio.IsRspecifier(in) != inTable {
						return kaldiioExit(ctx, fmt.Errorf("vector-sum: mixing tables and single files among the inputs (%s, %s)", ins[0], in))
					}
				}
				switch {
				case inTable && kaldiio.IsWspecifier(out):
					st, err := kaldiio.VectorSumTable(ins, out, warn, tableStreams(ctx)...)
					if err == nil {
						ctx.Log("Summed vectors for %d keys, had errors (missing or mismatched vectors) for %d.", st.Done, st.Errors)
						if st.Done == 0 {
							return kaldicmd.Exit(1, nil) // Kaldi's "return (n_success != 0 ? 0 : 1)"
						}
					}
					return kaldiioExit(ctx, err)
				case inTable && len(ins) == 1:
					st, err := kaldiio.VectorSumArchive(ins[0], out, o, warn, tableStreams(ctx)...)
					if err == nil {
						ctx.Log("Summed %d vectors, %d with errors; wrote sum to %s", st.Done, st.Errors, out)
						if st.Done == 0 || st.Errors >= st.Done {
							return kaldicmd.Exit(1, nil) // Kaldi's: the sum is written, the status says it is doubtful
						}
					}
					return kaldiioExit(ctx, err)
				case !inTable && !kaldiio.IsWspecifier(out):
					err := kaldiio.VectorSumFiles(ins, out, o, tableStreams(ctx)...)
					if err == nil {
						ctx.Log("Summed %d vectors; wrote sum to %s", len(ins), out)
					}
					return kaldiioExit(ctx, err)
				}
				return kaldiioExit(ctx, fmt.Errorf("vector-sum: %d table inputs and the output %s: give one table and a file, tables and a table, or files and a file", len(ins), out))
			}
		},
	})
}
