package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/align"
	"github.com/strode-asr/strode/decoder/fst"
	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "gmm-align-compiled",
		Summary: "Align features given GMM-based models",
		Description: "Align features given [GMM-based] models.\n" +
			"The log-likelihoods are computed a matrix product at a time (the same as gmm-compute-likes up to float rounding);\n" +
			"the alignment is align-compiled-mapped's. Kaldi's train_mono.sh uses --transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1.",
		ArgsUsage: "<model-in> <graphs-rspecifier> <feature-rspecifier> <alignments-wspecifier> [<scores-wspecifier>]",
		Examples: []string{
			"strode gmm-align-compiled --transition-scale=1.0 --acoustic-scale=0.1 --self-loop-scale=0.1 --beam=10 --retry-beam=40 1.mdl ark:graphs.fsts scp:train.scp ark:1.ali",
		},
		MinArgs: 4,
		MaxArgs: 5,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			opt := align.DefaultOptions()
			opt.Register(fs)
			_ = fs.Bool("binary", true, "Write output in binary mode")
			return func(ctx *kaldicmd.Context) error {
				if opt.RetryBeam != 0 && opt.RetryBeam <= opt.Beam {
					ctx.Warn("Beams do not make sense: beam %g, retry-beam %g", opt.Beam, opt.RetryBeam)
				}
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				al, err := align.NewAligner(&m.Trans, opt)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				graphs, err := kaldiio.OpenRandomAccessReader(ctx.Arg(1), fst.Codec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				defer graphs.Close()
				feats, err := kaldiio.OpenSequentialReader(ctx.Arg(2), kaldiio.MatrixCodec, tableStreams(ctx)...)
				if err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				defer feats.Close()
				likes := &gmmLikes{feats: feats, scorer: gmm.NewBatchScorer(&m.AM)}
				return alignAll(ctx, al, opt, likes, ctx.Arg(2), ctx.Arg(3), ctx.Arg(4), graphLookup(graphs), "No graph found for utterance %s", "")
			}
		},
	})
}

// gmmLikes turns a feature table into the model's log-likelihoods as it is
// read. A feature matrix of the wrong dimension ends the sequence with an
// error naming the utterance.
type gmmLikes struct {
	feats  *kaldiio.SequentialReader[kaldiio.Matrix]
	scorer *gmm.BatchScorer
	cur    kaldiio.Matrix
	err    error
}

func (g *gmmLikes) Next() bool {
	if g.err != nil || !g.feats.Next() {
		return false
	}
	x := g.feats.Value()
	if err := g.scorer.LogLikelihoods(&x, &g.cur); err != nil {
		g.err = fmt.Errorf("utterance %s: %w", g.feats.Key(), err)
		return false
	}
	return true
}

func (g *gmmLikes) Skipped() int          { return g.feats.Skipped() }
func (g *gmmLikes) Key() string           { return g.feats.Key() }
func (g *gmmLikes) Value() kaldiio.Matrix { return g.cur }
func (g *gmmLikes) Err() error {
	if g.err != nil {
		return g.err
	}
	return g.feats.Err()
}
