package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "lattice-to-post",
		Summary:     "Forward-backward over lattices: posteriors of transition-ids",
		Description: "Do forward-backward and collect posteriors over lattices.",
		ArgsUsage:   "<lats-rspecifier> <posts-wspecifier> [<loglikes-wspecifier>]",
		Examples:    []string{"strode lattice-to-post --acoustic-scale=0.1 ark:1.lats ark:1.post"},
		MinArgs:     2,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			acwt, lmwt := 1.0, 1.0
			fs.Float64Var(&acwt, "acoustic-scale", acwt, "Scaling factor for acoustic likelihoods")
			fs.Float64Var(&lmwt, "lm-scale", lmwt, "Scaling factor for \"graph costs\" (including LM costs)")
			return func(ctx *kaldicmd.Context) error {
				if acwt == 0 {
					return fmt.Errorf("Do not use a zero acoustic scale (cannot be inverted)")
				}
				return latticeToPost(ctx, float32(acwt), float32(lmwt))
			}
		},
	})
}

func latticeToPost(ctx *kaldicmd.Context, acwt, lmwt float32) error {
	src, err := kaldiio.OpenSequentialReader(ctx.Arg(0), lattice.LatticeCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer src.Close()
	pw, err := kaldiio.OpenTableWriter(ctx.Arg(1), kaldiio.PosteriorCodec, tableStreams(ctx)...)
	if err != nil {
		return err
	}
	defer pw.Abort()
	lw, err := openOptionalWriter(ctx, ctx.Arg(2), kaldiio.FloatCodec)
	if err != nil {
		return err
	}
	defer lw.Abort()
	done := 0
	totLike, totT := 0.0, 0.0
	for src.Next() {
		key := src.Key()
		lat := src.Value()
		if acwt != 1 || lmwt != 1 {
			lat.Scale(lattice.LatticeScale(lmwt, acwt))
		}
		if err := lat.TopSort(); err != nil {
			return fmt.Errorf("lattice %s in %s: Cycles detected in lattice.", key, ctx.Arg(0))
		}
		post, like, err := lat.ForwardBackward(ctx.Warn, nil)
		if err != nil {
			return fmt.Errorf("lattice %s in %s: %w", key, ctx.Arg(0), err)
		}
		totLike += like
		totT += float64(len(post))
		ctx.Vlog(2, "Processed lattice for utterance: %s; found %d states and %d arcs. Average log-likelihood = %s over %d frames.",
			key, len(lat.States), numArcs(&lat), fmtG(float32(like/float64(len(post)))), len(post))
		if err := lw.Write(key, float32(like)); err != nil {
			return err
		}
		if err := pw.Write(key, post); err != nil {
			return err
		}
		done++
	}
	if err := src.Err(); err != nil {
		return err
	}
	if err := pw.Close(); err != nil {
		return err
	}
	if err := lw.Close(); err != nil {
		return err
	}
	ctx.Log("Overall average log-like/frame is %s over %s frames.", fmtG(float32(totLike/totT)), fmtG(float32(totT)))
	ctx.Log("Done %d lattices.", done)
	if done == 0 {
		return kaldicmd.Exit(1, nil)
	}
	return nil
}

func numArcs(l *lattice.Lattice) int {
	n := 0
	for _, s := range l.States {
		n += len(s.Arcs)
	}
	return n
}
