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
	"github.com/strode-asr/strode/internal/kaldicmd"
	"github.com/strode-asr/strode/kaldiio"
)

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
			o := gmm.InitMonoOptions{}
			o.Register(fs)
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
				if o.SharedPhones != "" {
					if sets, err = tree.ReadIntegerVectorVector(o.SharedPhones, tableStreams(ctx)...); err != nil {
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
				if o.TrainFeats != "" {
					if mean, variance, err = globalMeanVar(ctx, o.TrainFeats, dim); err != nil {
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
}

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
