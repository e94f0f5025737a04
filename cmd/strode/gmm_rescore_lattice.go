package main

import (
	"errors"
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/decoder/lattice"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-rescore-lattice",
		Summary:     "Replace the acoustic scores of lattices with a GMM's on new features",
		Description: "Replace the acoustic scores on a lattice using a new model.",
		ArgsUsage:   "<model-in> <lattice-rspecifier> <feature-rspecifier> <lattice-wspecifier>",
		Examples:    []string{"strode gmm-rescore-lattice 1.mdl ark:1.lats scp:trn.scp ark:2.lats"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			oldScale := 0.0
			fs.Float64Var(&oldScale, "old-acoustic-scale", oldScale, "Add the current acoustic scores with some scale.")
			return func(ctx *kaldicmd.Context) error {
				return gmmRescoreLattice(ctx, float32(oldScale))
			}
		},
	})
}

func gmmRescoreLattice(ctx *kaldicmd.Context, oldScale float32) error {
	fail := func(err error) error { return kaldicmd.Exit(decoderFailure, err) }
	m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
	if err != nil {
		return fail(err)
	}
	feats, err := kaldiio.OpenRandomAccessReader(ctx.Arg(2), kaldiio.MatrixCodec, tableStreams(ctx)...)
	if err != nil {
		return fail(err)
	}
	defer feats.Close()
	src, err := kaldiio.OpenSequentialReader(ctx.Arg(1), lattice.LatticeCodec, tableStreams(ctx)...)
	if err != nil {
		return fail(err)
	}
	defer src.Close()
	out, err := kaldiio.OpenTableWriter(ctx.Arg(3), lattice.CompactLatticeCodec, tableStreams(ctx)...)
	if err != nil {
		return fail(err)
	}
	defer out.Abort()
	numPdfs := m.AM.NumPdfs()
	var scratch []float32
	done, noFeats, other := 0, 0, 0
	for src.Next() {
		key := src.Key()
		ok, err := feats.HasKey(key)
		if err != nil {
			return fail(err)
		}
		if !ok {
			ctx.Warn("No feature found for utterance %s. Skipping", key)
			noFeats++
			continue
		}
		lat := src.Value()
		if oldScale != 1 {
			lat.Scale([2][2]float64{{1, 0}, {0, float64(oldScale)}})
		}
		if err := lat.TopSort(); err != nil {
			return fail(fmt.Errorf("lattice %s in %s: Cycles detected in lattice.", key, ctx.Arg(1)))
		}
		x, err := feats.Value(key)
		if err != nil {
			return fail(err)
		}
		if x.Cols != m.AM.Dim {
			return fail(fmt.Errorf("utterance %s in %s: features have dimension %d, the model %s has %d", key, ctx.Arg(2), x.Cols, ctx.Arg(0), m.AM.Dim))
		}
		cache := map[int]float32{}
		err = lat.AcousticRescore(x.Rows, func(t int, tid int32) (float32, error) {
			if !m.Trans.ValidTransitionID(tid) {
				return 0, fmt.Errorf("transition-id %d is not in the model %s", tid, ctx.Arg(0))
			}
			pdf := int(m.Trans.TransitionIDToPdf(tid))
			k := t*numPdfs + pdf
			if ll, ok := cache[k]; ok {
				return ll, nil
			}
			g := &m.AM.Pdfs[pdf]
			if cap(scratch) < g.NumGauss() {
				scratch = make([]float32, g.NumGauss())
			}
			ll := g.LogLikelihood(x.Row(t), scratch[:g.NumGauss()])
			cache[k] = ll
			return ll, nil
		})
		if errors.Is(err, lattice.ErrLength) {
			_, maxT, _ := lat.StateTimes()
			ctx.Warn("Skipping utterance %s since number of time frames in lattice (%d) differ from number of feature frames (%d).", key, maxT, x.Rows)
			other++
			continue
		}
		if err != nil {
			return fail(fmt.Errorf("lattice %s in %s: %w", key, ctx.Arg(1), err))
		}
		if err := out.Write(key, *lat.ToCompact()); err != nil {
			return fail(err)
		}
		done++
	}
	if err := src.Err(); err != nil {
		return fail(err)
	}
	if err := out.Close(); err != nil {
		return fail(err)
	}
	ctx.Log("Done %d lattices.", done)
	if done == 0 {
		return kaldicmd.Exit(1, nil)
	}
	return nil
}
