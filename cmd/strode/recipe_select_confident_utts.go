package main

import (
	"flag"
	"fmt"
	"sort"
	"strings"

	"github.com/strode-asr/strode/internal/atomicfile"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
	"github.com/strode-asr/strode/recipes/fsdd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "select-confident-utts",
		Summary: "Rank utterances by the mean of their per-frame weights and list the most confident fraction",
		Description: "Reads per-frame weights (get-post-on-ali of a best path: the posterior of the decoded pdf),\n" +
			"writes <confidence-out> (\"utt mean\" lines, most confident first) and <utt-list-out> (the first\n" +
			"--keep-fraction of them, at least one, sorted): the utterances an unsupervised adaptation trains\n" +
			"on (recipes/fsdd stage 9).",
		ArgsUsage: "<weights-rspecifier> <confidence-out> <utt-list-out>",
		Examples: []string{
			"strode get-post-on-ali ark:post.ark ark:pdf_ali.ark ark,t:- | strode select-confident-utts --keep-fraction=0.8 ark:- confidence keep.list",
		},
		MinArgs: 3,
		MaxArgs: 3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			frac := fs.Float64("keep-fraction", 0.8, "Fraction of the utterances to keep (rounded, at least one)")
			return func(ctx *kaldicmd.Context) error {
				if !(*frac > 0 && *frac <= 1) {
					return fmt.Errorf("--keep-fraction=%g must be in (0, 1]", *frac)
				}
				sr, err := kaldiio.OpenSequentialReader(ctx.Arg(0), kaldiio.DoubleVectorCodec, tableStreams(ctx)...)
				if err != nil {
					return err
				}
				var utts []string
				var means []float64
				for sr.Next() {
					m, err := fsdd.MeanWeight(sr.Key(), sr.Value())
					if err != nil {
						sr.Close()
						return fmt.Errorf("%s: %w", ctx.Arg(0), err)
					}
					utts, means = append(utts, sr.Key()), append(means, m)
				}
				if err := sr.Close(); err != nil {
					return err
				}
				if len(utts) == 0 {
					return fmt.Errorf("%s: no utterances", ctx.Arg(0))
				}
				ranked := fsdd.RankByConfidence(utts, means)
				n := fsdd.KeepCount(len(ranked), *frac)
				keep := make([]string, n)
				for i, l := range ranked[:n] {
					keep[i], _, _ = strings.Cut(l, " ")
				}
				sort.Strings(keep)
				if err := atomicfile.WriteBytes(ctx.Arg(1), []byte(strings.Join(ranked, "\n")+"\n")); err != nil {
					return err
				}
				if err := atomicfile.WriteBytes(ctx.Arg(2), []byte(strings.Join(keep, "\n")+"\n")); err != nil {
					return err
				}
				ctx.Log("Kept %d of %d utterances (mean weight %s to %s)", n, len(ranked), field2(ranked[n-1]), field2(ranked[0]))
				return nil
			}
		},
	})
}

func field2(line string) string { _, s, _ := strings.Cut(line, " "); return s }
