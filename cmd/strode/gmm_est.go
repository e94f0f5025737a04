package main

import (
	"flag"
	"fmt"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-est",
		Summary:     "Do Maximum Likelihood re-estimation of GMM-based acoustic model",
		Description: "Do Maximum Likelihood re-estimation of GMM-based acoustic model.\nSplitting Gaussians (--mix-up) draws from glibc's rand() as Kaldi does.",
		ArgsUsage:   "<model-in> <stats-in> <model-out>",
		Examples:    []string{"strode gmm-est --mix-up=1000 1.mdl 1.acc 2.mdl"},
		MinArgs:     3,
		MaxArgs:     3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			o := gmm.DefaultEstOptions()
			o.Register(fs)
			return func(ctx *kaldicmd.Context) error {
				fail := func(err error) error { return kaldicmd.Exit(decoderFailure, err) }
				if err := o.Validate(); err != nil {
					return fail(err)
				}
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return fail(err)
				}
				var accs gmm.Accs
				if err := kaldiio.ReadObject(ctx.Arg(1), gmm.AccsCodec, &accs, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				r, err := gmm.Estimate(m, &accs, o)
				if err != nil {
					return fail(fmt.Errorf("model %s, stats %s: %w", ctx.Arg(0), ctx.Arg(1), err))
				}
				if r.TransitionsUpdated {
					ctx.Log("TransitionModel::Update, objf change is %g per frame over %g frames. %d probabilities floored, %d out of %d transition-states skipped due to insuffient data.",
						r.TransImpr/max(r.TransCount, 1e-20), r.TransCount, r.TransFloored, r.TransSkipped, m.Trans.NumTransitionStates())
				}
				for _, w := range r.Gmm.Warnings {
					ctx.Warn("%s", w)
				}
				if r.Gmm.Floored > 0 {
					ctx.Warn("%d variances floored in %d Gaussians.", r.Gmm.Floored, r.Gmm.FlooredGauss)
				}
				ctx.Log("GMM update: Overall avg like per frame = %s over %s frames.", g6(accs.GMM.TotLogLike/max(accs.GMM.TotFrames, 1e-20)), g6(accs.GMM.TotFrames))
				ctx.Log("GMM update: Overall objective function improvement is %s per frame over %s frames", g6(r.Gmm.ObjChange/max(r.Gmm.Count, 1e-20)), g6(r.Gmm.Count))
				if mix := o.MixUp; mix.MixUp != 0 {
					if r.MixUpShort {
						ctx.Warn("Could not split up to %d due to min-count = %g (or no counts at all)", mix.MixUp, mix.MinCount)
					}
					ctx.Log("Split %d states with target = %d, power = %g, perturb_factor = %g and min_count = %g, split #Gauss from %d to %d",
						m.AM.NumPdfs(), mix.MixUp, mix.Power, mix.PerturbFactor, mix.MinCount, r.GaussBefore, r.GaussAfter)
				}
				if o.WriteOccs != "" {
					v := make(kaldiio.Vector, len(r.Occs))
					for i, occ := range r.Occs {
						v[i] = float32(occ)
					}
					if err := kaldiio.WriteObject(o.WriteOccs, kaldiio.VectorCodec, false, &v, tableStreams(ctx)...); err != nil {
						return fail(err)
					}
				}
				if err := kaldiio.WriteObject(ctx.Arg(2), gmm.ModelCodec, *binary, m, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				ctx.Log("Written model to %s", ctx.Arg(2))
				return nil
			}
		},
	})
}
