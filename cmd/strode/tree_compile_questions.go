package main

import (
	"flag"
	"fmt"
	"slices"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "compile-questions",
		Summary:     "Compile questions",
		Description: "Compile questions",
		ArgsUsage:   "<topo> <questions-text-file> <questions-out>",
		Examples:    []string{"strode compile-questions topo questions.txt questions.qst"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			opts := tree.DefaultCompileQuestionsOptions()
			opts.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				var topo hmm.Topology
				if err := kaldiio.ReadObject(ctx.Arg(0), hmm.TopologyCodec, &topo, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				sets, err := tree.ReadIntegerVectorVector(ctx.Arg(1), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("could not read questions from %s: %w", ctx.Arg(1), err))
				}
				// Kaldi's ProcessTopo: warn when the questions and the
				// topology cover different phones; an error only when the
				// questions ask about more phones than the topology has.
				var seen []int32
				for _, s := range sets {
					seen = append(seen, s...)
				}
				slices.Sort(seen)
				seen = slices.Compact(seen)
				if !slices.Equal(seen, topo.Phones) {
					ctx.Warn("ProcessTopo: phones seen in questions differ from those in topology: %v vs. %v", seen, topo.Phones)
					if len(seen) > len(topo.Phones) {
						return kaldicmd.Exit(decoderFailure, fmt.Errorf("ProcessTopo: phones are asked about that are undefined in the topology"))
					}
				}
				maxClasses := 0
				for _, ph := range topo.Phones {
					c, _ := topo.NumPdfClasses(ph)
					maxClasses = max(maxClasses, c)
				}
				ctx.Log("Max # pdf classes is %d", maxClasses)
				q, err := tree.CompileQuestions(sets, maxClasses, opts)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("%s: %w", ctx.Arg(1), err))
				}
				if err := kaldiio.WriteObject(ctx.Arg(2), tree.QuestionsCodec, *binary, q, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				ctx.Log("Wrote questions to %s", ctx.Arg(2))
				return nil
			}
		},
	})
}
