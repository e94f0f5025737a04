package main

import (
	"flag"
	"fmt"
	"slices"
	"strconv"

	"github.com/strode-asr/strode/decoder/gmm"
	"github.com/strode-asr/strode/decoder/hmm"
	"github.com/strode-asr/strode/decoder/mkgraph"
	"github.com/strode-asr/strode/decoder/tree"
	"github.com/strode-asr/strode/internal/glibcrand"
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

// Kaldi's tools of monophone GMM training (steps/train_mono.sh): a flat
// start with one Gaussian per pdf at the global mean and variance, then
// rounds of Viterbi statistics, maximum-likelihood re-estimation with
// mixing up, and realignment (gmm-align-compiled).
func init() {
	register(&kaldicmd.Command{
		Name:        "gmm-init-mono",
		Summary:     "Initialize monophone GMM",
		Description: "Initialize monophone GMM: one Gaussian per pdf at the global mean and variance of --train-feats (zero and one without), and the monophone tree.",
		ArgsUsage:   "<topology-in> <dim> <model-out> <tree-out>",
		Examples:    []string{"strode gmm-init-mono --shared-phones=data/lang/phones/sets.int \"--train-feats=ark:feats.ark\" data/lang/topo 39 0.mdl tree"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			trainFeats := fs.String("train-feats", "", "rspecifier for training features [used to set mean and variance]")
			sharedPhones := fs.String("shared-phones", "", "rxfilename containing, on each line, a list of phones whose pdfs should be shared.")
			return func(ctx *kaldicmd.Context) error {
				fail := func(err error) error { return kaldicmd.Exit(decoderFailure, err) }
				dim, err := strconv.Atoi(ctx.Arg(1))
				if err != nil || dim < 1 || dim > 10000 {
					return fail(fmt.Errorf("bad dimension %q", ctx.Arg(1)))
				}
				var topo hmm.Topology
				if err := kaldiio.ReadObject(ctx.Arg(0), hmm.TopologyCodec, &topo, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				var sets [][]int32
				if *sharedPhones != "" {
					if sets, err = tree.ReadIntegerVectorVector(*sharedPhones, tableStreams(ctx)...); err != nil {
						return fail(fmt.Errorf("--shared-phones: %w", err))
					}
				} else {
					for _, p := range topo.Phones {
						sets = append(sets, []int32{p})
					}
				}
				ctxDep, err := mkgraph.MonophoneTree(&topo, sets)
				if err != nil {
					return fail(err)
				}
				tm, err := mkgraph.MonophoneTransitionModel(topo, ctxDep)
				if err != nil {
					return fail(err)
				}
				var mean, variance []float64
				if *trainFeats != "" {
					if mean, variance, err = globalMeanVar(ctx, *trainFeats, dim); err != nil {
						return fail(err)
					}
				}
				m := &gmm.Model{Trans: *tm, AM: gmm.InitMono(tm.NumPdfs(), dim, mean, variance)}
				if err := kaldiio.WriteObject(ctx.Arg(2), gmm.ModelCodec, *binary, m, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				if err := kaldiio.WriteObject(ctx.Arg(3), tree.ContextDependencyCodec, *binary, ctxDep, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				return nil
			}
		},
	})
	register(&kaldicmd.Command{
		Name:        "gmm-acc-stats-ali",
		Summary:     "Accumulate stats for GMM training",
		Description: "Accumulate stats for GMM training (from alignments: Viterbi statistics).",
		ArgsUsage:   "<model-in> <feature-rspecifier> <alignments-rspecifier> <stats-out>",
		Examples:    []string{"strode gmm-acc-stats-ali 1.mdl scp:train.scp ark:1.ali 1.acc"},
		MinArgs:     4,
		MaxArgs:     4,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			return func(ctx *kaldicmd.Context) error {
				fail := func(err error) error { return kaldicmd.Exit(decoderFailure, err) }
				m, err := gmm.ReadModel(ctx.Arg(0), tableStreams(ctx)...)
				if err != nil {
					return fail(err)
				}
				accs := gmm.Accs{Transitions: m.Trans.InitStats(), GMM: *gmm.NewAccumAmDiagGmm(&m.AM, gmm.FlagAll)}
				feats, err := kaldiio.OpenSequentialReader(ctx.Arg(1), kaldiio.MatrixCodec, tableStreams(ctx)...)
				if err != nil {
					return fail(err)
				}
				defer feats.Close()
				alis, err := kaldiio.OpenRandomAccessReader(ctx.Arg(2), kaldiio.IntVectorCodec, tableStreams(ctx)...)
				if err != nil {
					return fail(err)
				}
				defer alis.Close()
				done, noAli, other := 0, 0, 0
				totLike := 0.0
				for feats.Next() {
					key := feats.Key()
					ok, err := alis.HasKey(key)
					if err != nil {
						return fail(err)
					}
					if !ok {
						ctx.Warn("No alignment for utterance %s", key)
						noAli++
						continue
					}
					ali, err := alis.Value(key)
					if err != nil {
						return fail(err)
					}
					x := feats.Value()
					if len(ali) != x.Rows {
						ctx.Warn("Alignments has wrong size %d vs. %d", len(ali), x.Rows)
						other++
						continue
					}
					if x.Cols != m.AM.Dim {
						return fail(fmt.Errorf("utterance %s: features have dimension %d, the model %d", key, x.Cols, m.AM.Dim))
					}
					if err := m.Trans.CheckAlignment(ali); err != nil {
						return fail(fmt.Errorf("utterance %s: alignment does not fit model %s: %w", key, ctx.Arg(0), err))
					}
					like := 0.0
					for t, tid := range ali {
						pdf := m.Trans.TransitionIDToPdf(tid)
						accs.Transitions[tid]++
						like += float64(accs.GMM.AccumulateForGmm(&m.AM, x.Row(t), int(pdf), 1))
					}
					ctx.Vlog(2, "Average like for this file is %s over %d frames.", g6(like/float64(len(ali))), len(ali))
					totLike += like
					done++
					if done%50 == 0 {
						ctx.Log("Processed %d utterances; for utterance %s avg. like is %s over %d frames.", done, key, g6(like/float64(len(ali))), len(ali))
					}
				}
				if err := feats.Err(); err != nil {
					return fail(err)
				}
				ctx.Log("Done %d files, %d with no alignments, %d with other errors.", done, noAli, other)
				frames := accs.GMM.TotFrames
				ctx.Log("Overall avg like per frame (Gaussian only) = %s over %s frames.", g6(totLike/max(frames, 1)), g6(frames))
				if err := kaldiio.WriteObject(ctx.Arg(3), gmm.AccsCodec, *binary, &accs, tableStreams(ctx)...); err != nil {
					return fail(err)
				}
				ctx.Log("Written accs.")
				if done == 0 {
					return kaldicmd.Exit(1, fmt.Errorf("no utterances accumulated"))
				}
				return nil
			}
		},
	})
	register(&kaldicmd.Command{
		Name:        "gmm-sum-accs",
		Summary:     "Sum multiple accumulated stats files for GMM training",
		Description: "Sum multiple accumulated stats files for GMM training.",
		ArgsUsage:   "<stats-out> <stats-in1> <stats-in2> ...",
		Examples:    []string{"strode gmm-sum-accs 1.acc 1.1.acc 1.2.acc"},
		MinArgs:     2,
		MaxArgs:     -1,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			binary := fs.Bool("binary", true, "Write output in binary mode")
			return func(ctx *kaldicmd.Context) error {
				var sum gmm.Accs
				for i := 1; i < len(ctx.Args()); i++ {
					var a gmm.Accs
					if err := kaldiio.ReadObject(ctx.Arg(i), gmm.AccsCodec, &a, tableStreams(ctx)...); err != nil {
						return kaldicmd.Exit(decoderFailure, err)
					}
					if err := sum.Add(&a); err != nil {
						return kaldicmd.Exit(decoderFailure, fmt.Errorf("%s: %w", ctx.Arg(i), err))
					}
				}
				ctx.Log("Summed %d stats, total count %s, avg like/frame %s", len(ctx.Args())-1, g6(sum.GMM.TotFrames), g6(sum.GMM.TotLogLike/max(sum.GMM.TotFrames, 1e-20)))
				if err := kaldiio.WriteObject(ctx.Arg(0), gmm.AccsCodec, *binary, &sum, tableStreams(ctx)...); err != nil {
					return kaldicmd.Exit(decoderFailure, err)
				}
				ctx.Log("Written stats to %s", ctx.Arg(0))
				return nil
			}
		},
	})
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
			mix := gmm.DefaultMixUpOptions()
			fs.IntVar(&mix.MixUp, "mix-up", 0, "Increase number of mixture components to this overall target.")
			fs.Float64Var(&mix.Power, "power", mix.Power, "If mixing up, power to allocate Gaussians to states.")
			fs.Float64Var(&mix.MinCount, "min-count", mix.MinCount, "Minimum per-Gaussian count enforced while mixing up and down.")
			fs.Float64Var(&mix.PerturbFactor, "perturb-factor", mix.PerturbFactor, "While mixing up, perturb means by standard deviation times this factor.")
			occsOut := fs.String("write-occs", "", "File to write pdf occupation counts to.")
			updateFlags := fs.String("update-flags", "mvwt", "Which GMM parameters to update: subset of mvwt.")
			opt := gmm.DefaultMleDiagGmmOptions()
			fs.Float64Var(&opt.MinGaussianWeight, "min-gaussian-weight", opt.MinGaussianWeight, "Min Gaussian weight before we remove it.")
			fs.Float64Var(&opt.MinGaussianOccupancy, "min-gaussian-occupancy", opt.MinGaussianOccupancy, "Minimum occupancy to update a Gaussian.")
			fs.Float64Var(&opt.MinVariance, "min-variance", opt.MinVariance, "Variance floor (absolute variance).")
			fs.BoolVar(&opt.RemoveLowCountGaussians, "remove-low-count-gaussians", opt.RemoveLowCountGaussians, "If true, remove Gaussians that fall below the floors.")
			topt := hmm.DefaultMleTransitionUpdateOptions()
			fs.Float64Var(&topt.Floor, "transition-floor", topt.Floor, "Floor for transition probabilities")
			fs.Float64Var(&topt.MinCount, "transition-min-count", topt.MinCount, "Minimum count required to update transitions from a state")
			return func(ctx *kaldicmd.Context) error {
				fail := func(err error) error { return kaldicmd.Exit(decoderFailure, err) }
				flags, err := gmm.ParseFlags(*updateFlags)
				if err != nil {
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
				if len(accs.GMM.Accs) != m.AM.NumPdfs() || len(accs.Transitions) != m.Trans.NumTransitionIDs()+1 {
					return fail(fmt.Errorf("stats %s (%d pdfs, %d transition counts) are not of model %s (%d pdfs, %d transition-ids)",
						ctx.Arg(1), len(accs.GMM.Accs), len(accs.Transitions)-1, ctx.Arg(0), m.AM.NumPdfs(), m.Trans.NumTransitionIDs()))
				}
				for i := range accs.GMM.Accs {
					if a := &accs.GMM.Accs[i]; a.NumGauss != m.AM.Pdfs[i].NumGauss() || a.Dim != m.AM.Dim {
						return fail(fmt.Errorf("stats %s: pdf %d has %d Gaussians of dimension %d, model %s %d of %d",
							ctx.Arg(1), i, a.NumGauss, a.Dim, ctx.Arg(0), m.AM.Pdfs[i].NumGauss(), m.AM.Dim))
					}
				}
				if flags&gmm.FlagTransitions != 0 {
					impr, count, skipped, floored, err := m.Trans.MleUpdate(accs.Transitions, topt)
					if err != nil {
						return fail(err)
					}
					ctx.Log("TransitionModel::Update, objf change is %g per frame over %g frames. %d probabilities floored, %d out of %d transition-states skipped due to insuffient data.",
						impr/max(count, 1e-20), count, floored, skipped, m.Trans.NumTransitionStates())
				}
				res, err := gmm.MleAmDiagGmmUpdate(opt, &accs.GMM, flags&^gmm.FlagTransitions, &m.AM)
				if err != nil {
					return fail(err)
				}
				for _, w := range res.Warnings {
					ctx.Warn("%s", w)
				}
				if res.Floored > 0 {
					ctx.Warn("%d variances floored in %d Gaussians.", res.Floored, res.FlooredGauss)
				}
				ctx.Log("GMM update: Overall avg like per frame = %s over %s frames.", g6(accs.GMM.TotLogLike/max(accs.GMM.TotFrames, 1e-20)), g6(accs.GMM.TotFrames))
				ctx.Log("GMM update: Overall objective function improvement is %s per frame over %s frames", g6(res.ObjChange/max(res.Count, 1e-20)), g6(res.Count))
				if mix.MixUp != 0 || *occsOut != "" {
					occs := make([]float64, len(accs.GMM.Accs))
					for i := range accs.GMM.Accs {
						for _, v := range accs.GMM.Accs[i].Occupancy {
							occs[i] += v
						}
						occs[i] = float64(float32(occs[i]))
					}
					if mix.MixUp != 0 {
						before, after, short := m.AM.SplitByCount(occs, mix, glibcrand.New(1))
						if short {
							ctx.Warn("Could not split up to %d due to min-count = %g (or no counts at all)", mix.MixUp, mix.MinCount)
						}
						ctx.Log("Split %d states with target = %d, power = %g, perturb_factor = %g and min_count = %g, split #Gauss from %d to %d",
							m.AM.NumPdfs(), mix.MixUp, mix.Power, mix.PerturbFactor, mix.MinCount, before, after)
					}
					if *occsOut != "" {
						v := make(kaldiio.Vector, len(occs))
						for i, o := range occs {
							v[i] = float32(o)
						}
						if err := kaldiio.WriteObject(*occsOut, kaldiio.VectorCodec, false, &v, tableStreams(ctx)...); err != nil {
							return fail(err)
						}
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

// g6 prints a number as Kaldi's logs do (six significant digits).
func g6(v float64) string { return hmm.FormatG6(v) }

// globalMeanVar is the mean and variance of every frame of rspec (as
// gmm-init-mono's --train-feats, in double); a variance that is not
// positive is an error.
func globalMeanVar(ctx *kaldicmd.Context, rspec string, dim int) (mean, variance []float64, err error) {
	r, err := kaldiio.OpenSequentialReader(rspec, kaldiio.MatrixCodec, tableStreams(ctx)...)
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	mean, variance = make([]float64, dim), make([]float64, dim)
	count := 0.0
	for r.Next() {
		m := r.Value()
		if m.Cols != dim {
			return nil, nil, fmt.Errorf("--train-feats: utterance %s has dimension %d, expected %d", r.Key(), m.Cols, dim)
		}
		for t := 0; t < m.Rows; t++ {
			for d, v := range m.Row(t) {
				mean[d] += float64(v)
				variance[d] += float64(v) * float64(v)
			}
			count++
		}
	}
	if err := r.Err(); err != nil {
		return nil, nil, err
	}
	if count == 0 {
		return nil, nil, fmt.Errorf("--train-feats %s: no features were seen", rspec)
	}
	for d := range mean {
		mean[d] /= count
		variance[d] = variance[d]/count - mean[d]*mean[d]
	}
	if slices.Min(variance) <= 0 {
		return nil, nil, fmt.Errorf("--train-feats %s: bad variance (a dimension is constant)", rspec)
	}
	return mean, variance, nil
}
