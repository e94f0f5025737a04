package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "cluster-phones",
		Summary:     "Cluster phones (or sets of phones) into sets for various purposes",
		Description: "Cluster phones (or sets of phones) into sets for various purposes",
		ArgsUsage:   "<tree-stats-in> <phone-sets-in> <clustered-phones-out>",
		Examples:    []string{"strode cluster-phones 1.tacc phonesets.txt questions.txt"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			p := fs.Int("central-position", 1, "Central position in context window [must match acc-tree-stats]")
			fs.Int("context-width", 3, "Does not have any effect-- included for scripting convenience.")
			pdfClassList := fs.String("pdf-class-list", "1", "Colon-separated list of HMM positions to consider [Default = 1: just central position for 3-state models].")
			mode := fs.String("mode", "questions", "Mode of operation: \"questions\"->sets suitable for decision trees; \"k-means\"->k-means algorithm, output k classes (set num-classes options)")
			numClasses := fs.Int("num-classes", -1, "For k-means mode, number of classes.")
			seed := fs.Uint("srand", 0, "Seed of the C library's rand() that k-means initialisation draws from (0, like 1, gives the sequence Kaldi's cluster-phones uses: it never seeds rand).")
			return func(ctx *kaldicmd.Context) error {
				stats, err := tree.ReadBuildTreeStats(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				classes, err := tree.ParseCSL(*pdfClassList)
				if err != nil || len(classes) == 0 {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("invalid pdf-class-list string [expecting colon-separated list of integers]: %s", *pdfClassList))
				}
				sets, err := tree.ReadIntegerVectorVector(ctx.Arg(1), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("could not read phone sets from %s: %w", ctx.Arg(1), err))
				}
				if len(sets) == 0 {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("no phone sets in phone sets file %s", ctx.Arg(1)))
				}
				opts := tree.ClusterPhonesOptions{CentralPosition: int32(*p), PdfClassList: classes, Seed: uint32(*seed)}
				var res *tree.ClusterPhonesResult
				switch *mode {
				case "questions":
					if *numClasses != -1 {
						return kaldicmd.Exit(decoderFailure, fmt.Errorf("num-classes option is not (currently) compatible with \"questions\" mode"))
					}
					res, err = tree.AutomaticallyObtainQuestions(stats, sets, opts)
				case "k-means":
					res, err = tree.KMeansClusterPhones(stats, sets, *numClasses, opts)
				default:
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("unknown --mode=%s (questions or k-means)", *mode))
				}
				if err != nil {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("%s: %w", ctx.Arg(0), err))
				}
				for _, w := range res.Warnings {
					ctx.Warn("%s", w)
				}
				if err := tree.WriteIntegerVectorVector(ctx.Arg(2), res.Sets, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, fmt.Errorf("error writing questions to %s: %w", ctx.Arg(2), err))
				}
				ctx.Log("Wrote questions to %s", ctx.Arg(2))
				return nil
			}
		},
	})
}
