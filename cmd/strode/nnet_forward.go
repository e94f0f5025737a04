package main

import (
	"flag"

	"github.com/strode-asr/strode/acoustic/am"
	"github.com/strode-asr/strode/acoustic/kaldinnet"
	"github.com/strode-asr/strode/decoder/priors"
	"github.com/strode-asr/strode/internal/kaldicmd"
)

func init() {
	register(&kaldicmd.Command{
		Name:    "forward",
		Summary: "Run an acoustic model on features, writing posteriors or pseudo log-likelihoods (nnet-forward)",
		Description: "Perform forward pass through an acoustic model, as nnet1's nnet-forward: softmax probabilities by\n" +
			"default, log-posteriors with --apply-log, pre-softmax activations with --no-softmax; with\n" +
			"--class-frame-counts, --prior-scale x log prior is subtracted (pdfs under --prior-floor banned),\n" +
			"giving pseudo log-likelihoods for latgen-faster-mapped. The model's feature pipeline (CMVN,\n" +
			"splicing) is applied to the raw features, whose dimension must match the model's. A causal model with\n" +
			"--head-variant=lookahead reads ceil(min(t~_i, L)) frames ahead of frame i; the mean and p95 over frames\n" +
			"are logged, and written with --lookahead-stats (per job; strode latency-curve adds the jobs' files up).",
		ArgsUsage: "<model-in> <feature-rspecifier> <feature-wspecifier>",
		Examples: []string{
			"strode forward --no-softmax=true --class-frame-counts=exp/strode/ali_train_pdf.counts exp/strode/final.am \\\n" +
				"    scp:data/test/feats.scp ark:- | strode latgen-faster-mapped ...",
		},
		MinArgs: 3, MaxArgs: 3,
		Setup: func(fs *flag.FlagSet) kaldicmd.RunFunc {
			o := kaldinnet.ForwardOptions{Prior: priors.DefaultOptions()}
			o.Output.Register(fs)
			o.Prior.Register(fs)
			fs.StringVar(&o.CMVN, "cmvn", "", "CMVN statistics rspecifier, when the model's pipeline applies CMVN from a table")
			fs.StringVar(&o.Utt2spk, "utt2spk", "", "utterance-to-speaker rspecifier for --cmvn")
			fs.StringVar(&o.LookaheadStats, "lookahead-stats", "", "write the frames' look-ahead (frames after its own that a frame's output waits for: ceil(min(t~, L)) for --head-variant=lookahead, else the fixed right context + target delay) to this file, as counts per frame count with mean and p95; strode latency-curve reads it. A lookahead model logs them always")
			return func(ctx *kaldicmd.Context) error {
				f, err := am.Load(ctx.Arg(0))
				if err != nil {
					return err
				}
				streams := tableStreams(ctx)
				rep := utteranceProgress(ctx, "forward", ctx.Arg(1))
				o.Progress = func() { rep.Add(1) }
				n, err := kaldinnet.Forward(f, o, ctx.Arg(1), ctx.Arg(2), ctx.Log, streams...)
				rep.Finish()
				ctx.Log("Done %d files", n)
				return err
			}
		},
	})
}
