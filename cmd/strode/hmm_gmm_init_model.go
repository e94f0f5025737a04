package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

// gmm-init-model is Kaldi's own tool for the model of a new tree: its
// model file is the transition model (all strode's decoder and aligners
// need) followed by one Gaussian per pdf made from the tree statistics,
// which need no GMM system to compute. Writing the whole file keeps it what
// Kaldi's gmm-init-model writes, so Kaldi's tools (gmm-align-compiled,
// convert-ali, show-transitions) take it too.
func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-init-model",
		Summary:     "Initialize GMM from decision tree and tree stats",
		Description: "Initialize GMM from decision tree and tree stats",
		ArgsUsage:   "<tree-in> <tree-stats-in> <topo-file> <model-out> [<old-tree> <old-model>]",
		Examples:    []string{"strode gmm-init-model tree treeacc topo 1.mdl", "strode gmm-init-model tree treeacc topo 1.mdl prev/tree prev/30.mdl"},
		MinArgs:     4,
		MaxArgs:     6,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			o := gmm.DefaultInitModelOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				fail := func(err error) error { return kaldicmd.Exit(decoderFailure, err) }
				ctxDep, err := tree.Read(ctx.Arg(0))
				if err != nil {
					return fail(err)
				}
				stats, err := tree.ReadBuildTreeStats(ctx.Arg(1), tableStreams(ctx)...)
				if err != nil {
					return fail(err)
				}
				ctx.Log("Number of separate statistics is %d", len(stats))
				var topo hmm.Topology
				if err := kaldiio.ReadObject(ctx.Arg(2), hmm.TopologyCodec, &topo, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				var res *gmm.InitModelResult
				switch len(ctx.Args()) {
				case 4:
					res, err = gmm.InitModel(ctxDep, topo, stats, float32(o.VarFloor))
				case 6:
					oldTree, err := tree.Read(ctx.Arg(4))
					if err != nil {
						return fail(err)
					}
					old, err := gmm.ReadModel(ctx.Arg(5), tableStreams(ctx)...)
					if err != nil {
						return fail(err)
					}
					res, err = gmm.InitModelFromOld(ctxDep, topo, stats, oldTree, &old.AM)
					if err != nil {
						return fail(err)
					}
				default:
					return kaldicmd.Exit(1, fmt.Errorf("expected 4 or 6 arguments, got %d", len(ctx.Args())))
				}
				if err != nil {
					return fail(err)
				}
				for _, w := range res.Warnings {
					ctx.Warn("%s", w)
				}
				if o.WriteOccs != "" {
					if err := kaldiio.WriteObject(o.WriteOccs, kaldiio.VectorCodec, *binary, &res.Occs, tableStreams(ctx)...); err != nil {
						return fail(err)
					}
				}
				if err := kaldiio.WriteObject(ctx.Arg(3), gmm.ModelCodec, *binary, &res.Model, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				ctx.Log("Wrote model.")
				return nil
			}
		},
	})
}
