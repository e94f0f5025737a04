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
			opts := tree.DefaultBuildTreeOptions()
			opts.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				fail := func(err error) error { return kaldicmd.Exit(decoderFailure, err) }
				if err := opts.Validate(); err != nil {
					return fail(err)
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
					if key >= opts.ContextWidth {
						return fail(fmt.Errorf("questions file %s asks about context position %d, beyond --context-width=%d", ctx.Arg(2), key, opts.ContextWidth))
					}
				}
				toPdf, info, err := tree.BuildTree(q, roots, hmm.PhoneToNumPdfClasses(&topo), stats, opts)
				if err != nil {
					return fail(err)
				}
				ctx.Log("BuildTree: before building trees, map has %d leaves.", info.StubLeaves)
				if opts.MaxLeaves > 0 && opts.MaxLeaves < info.StubLeaves {
					// Kaldi's BuildTree goes on silently with the stub's leaves; the
					// tree then has more leaves than asked, which deserves a word.
					ctx.Warn("--max-leaves=%d is below the %d leaves that the roots file %s gives before any split (one per shared root, one per pdf-class of a root not shared): no phone is split, the tree keeps those %d leaves (as Kaldi's build-tree does)",
						opts.MaxLeaves, info.StubLeaves, ctx.Arg(1), info.StubLeaves)
				}
				ctx.Log("DoDecisionTreeSplit: split %d times, #leaves now %d", info.Splits, info.LeavesAfterSplit)
				if opts.ClusterThresh < 0 {
					ctx.Log("Setting clustering threshold to smallest split %g", info.SmallestSplit)
				}
				ctx.Vlog(1, "After decision tree split, num-leaves = %d, like-impr = %g per frame over %g frames.", info.LeavesAfterSplit, info.Improvement/info.Frames, info.Frames)
				if info.ClusterThresh != 0 {
					ctx.Log("BuildTree: removed %d leaves.", info.Removed)
				}
				if opts.RoundNumLeaves {
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
				ctxDep := &tree.ContextDependency{ContextWidth: opts.ContextWidth, CentralPosition: opts.CentralPosition, ToPdf: toPdf}
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
