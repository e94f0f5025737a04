package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "build-tree",
		Summary:     "Train decision tree",
		Description: "Train decision tree",
		ArgsUsage:   "<tree-stats-in> <roots-file> <questions-file> <topo-file> <tree-out>",
		Examples:    []string{"strode build-tree treeacc roots.txt 1.qst topo tree"},
		MinArgs:     5,
		MaxArgs:     5,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			n := fs.Int("context-width", 3, "Context window size [must match acc-tree-stats]")
			p := fs.Int("central-position", 1, "Central position in context window [must match acc-tree-stats]")
			maxLeaves := fs.Int("max-leaves", 0, "Maximum number of leaves to be used in tree-building (if positive)")
			thresh := fs.Float64("thresh", 300, "Log-likelihood change threshold for tree-building")
			clusterThresh := fs.Float64("cluster-thresh", -1, "Log-likelihood change threshold for clustering after tree-building.  0 means no clustering; -1 means use as a clustering threshold the likelihood change of the final split.")
			round := fs.Bool("round-num-leaves", true, "If true, then the number of leaves will be reduced to a multiple of 8 by clustering.")
			return func(ctx *kaldicmd.Context) error {
				fail := func(err error) error { return kaldicmd.Exit(decoderFailure, err) }
				if *n < 1 || *p < 0 || *p >= *n {
					return fail(fmt.Errorf("--context-width=%d --central-position=%d: need 0 <= P < N", *n, *p))
				}
				rootsIn, err := kaldiio.OpenInput(ctx.Arg(1), tableStreams(ctx)...)
				if err != nil {
					return fail(err)
				}
				roots, err := tree.ReadRoots(rootsIn.Reader(), ctx.Arg(1))
				rootsIn.Close()
				if err != nil {
					return fail(err)
				}
				var topo hmm.Topology
				if err := kaldiio.ReadObject(ctx.Arg(3), hmm.TopologyCodec, &topo, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				stats, err := tree.ReadBuildTreeStats(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return fail(err)
				}
				ctx.Log("Number of separate statistics is %d", len(stats))
				q, err := tree.ReadQuestions(ctx.Arg(2), tableStreams(ctx)...)
				if err != nil {
					return fail(fmt.Errorf("error reading questions file %s, error is: %w", ctx.Arg(2), err))
				}
				for _, key := range q.Keys() {
					if key >= int32(*n) {
						return fail(fmt.Errorf("questions file %s asks about context position %d, beyond --context-width=%d", ctx.Arg(2), key, *n))
					}
				}
				opts := tree.BuildTreeOptions{CentralPosition: int32(*p), Thresh: float32(*thresh), MaxLeaves: *maxLeaves,
					ClusterThresh: float32(*clusterThresh), RoundNumLeaves: *round}
				toPdf, info, err := tree.BuildTree(q, roots, hmm.PhoneToNumPdfClasses(&topo), stats, opts)
				if err != nil {
					return fail(err)
				}
				ctx.Log("BuildTree: before building trees, map has %d leaves.", info.StubLeaves)
				ctx.Log("DoDecisionTreeSplit: split %d times, #leaves now %d", info.Splits, info.LeavesAfterSplit)
				if *clusterThresh < 0 {
					ctx.Log("Setting clustering threshold to smallest split %g", info.SmallestSplit)
				}
				ctx.Vlog(1, "After decision tree split, num-leaves = %d, like-impr = %g per frame over %g frames.", info.LeavesAfterSplit, info.Improvement/info.Frames, info.Frames)
				if info.ClusterThresh != 0 {
					ctx.Log("BuildTree: removed %d leaves.", info.Removed)
				}
				if *round {
					ctx.Log("BuildTree: removed %d leaves to make the number of leaves a multiple of 8.", info.RemovedRounding)
				}
				ctx.Vlog(1, "Num-leaves is now %d", info.NumLeaves)
				if len(info.UnseenPhones) > 0 {
					ctx.Warn("Saw no stats for following phones: %v", info.UnseenPhones)
				}
				var all []int32
				for _, s := range roots.PhoneSets {
					all = append(all, s...)
				}
				if !samePhones(all, topo.Phones) {
					ctx.Warn("Mismatch between phone sets provided in roots file, and those in topology: %v vs. %v", all, topo.Phones)
				}
				ctxDep := &tree.ContextDependency{ContextWidth: int32(*n), CentralPosition: int32(*p), ToPdf: toPdf}
				if err := kaldiio.WriteObject(ctx.Arg(4), tree.ContextDependencyCodec, *binary, ctxDep, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				ctx.Log("Wrote tree with %d leaves", info.NumLeaves)
				return nil
			}
		},
	})
}

// samePhones reports whether two phone lists hold the same phones.
func samePhones(a, b []int32) bool {
	in := map[int32]bool{}
	for _, x := range a {
		in[x] = true
	}
	if len(in) != len(b) {
		return false
	}
	for _, x := range b {
		if !in[x] {
			return false
		}
	}
	return true
}
